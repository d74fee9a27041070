package io.railcoll;

/**
 * Whether a communicator may broadcast by reliable UDP multicast ({@code broadcast.multicast}, {@code RAILCOLL_MCAST}).
 * <ul>
 *   <li>{@link #OFF} (default): {@code broadcast.multicast} cannot run (forcing it is an error); nothing is opened.</li>
 *   <li>{@link #AUTO}: the selector may pick it by cost when the placement spans nodes; the multicast group and its
 *       control links are opened by the first broadcast that uses it.</li>
 *   <li>{@link #ON}: as auto, but the group is opened at start-up (a missing multicast route is logged at once).</li>
 * </ul>
 * Every rank must use the same mode: selection, and opening the group, are collective.
 */
public enum MulticastMode {
    OFF,
    AUTO,
    ON;

    public static MulticastMode parse(String s) {
        return switch (s.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "off", "false", "0", "no" -> OFF;
            case "auto" -> AUTO;
            case "on", "true", "1", "yes" -> ON;
            default -> throw new IllegalArgumentException("RAILCOLL_MCAST must be on, off or auto, got '" + s + "'");
        };
    }
}
