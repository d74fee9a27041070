package io.railcoll.schedule;

/**
 * An algorithm whose programs hold {@link Op.Multicast} ops: the engine runs them like any schedule, on the
 * communicator's multicast group, which exists only where the multicast transport is enabled
 * ({@code RAILCOLL_MCAST}); the selector checks that. Decision 0146.
 */
public interface MulticastUser extends Algorithm {
    /** The capability a communicator enables when it has a multicast group. */
    String TRANSPORT = "multicast";

    /** Why it cannot run without the capability, and how to enable it, for error messages. */
    static String transportOff() {
        return "the " + TRANSPORT + " transport is off (RAILCOLL_MCAST=off); set RAILCOLL_MCAST=auto or on on every rank";
    }
}
