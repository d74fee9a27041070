package io.railcoll;

/**
 * How rail I/O is driven (paper 004's two approaches).
 * <ul>
 *   <li>{@link #SINGLE}: non-threaded; the calling thread drives every rail through one selector while it waits,
 *       so a small message crosses no thread hand-off.</li>
 *   <li>{@link #THREADED}: one progress thread per rail, each driving that rail's connections; the caller posts
 *       and waits.</li>
 * </ul>
 */
public enum EngineMode {
    SINGLE,
    THREADED;

    public static EngineMode parse(String s) {
        return switch (s.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "single", "non-threaded", "nonthreaded" -> SINGLE;
            case "threaded" -> THREADED;
            default -> throw new IllegalArgumentException("unknown engine '" + s + "': expected single or threaded");
        };
    }
}
