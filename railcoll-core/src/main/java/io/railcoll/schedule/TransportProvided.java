package io.railcoll.schedule;

/**
 * An algorithm a transport carries out itself rather than the engine running its programs (today only the node
 * collectives in shared memory, {@link NodePhased}; the multicast algorithms became programs with
 * {@link Op.Multicast} ops, decision 0146). It is still a catalog entry: it has an id, restrictions, a summary and a paper, it can be forced, and
 * selection costs it. Its {@link #program programs} are the point-to-point schedule it falls back on when the
 * transport cannot deliver, so the schedule checker and the simulator still have something true to work on; the
 * selector costs it with its own model instead (see docs/decisions/0010).
 */
public interface TransportProvided extends Algorithm {

    /** The transport that carries it out and must be enabled for it to run, e.g. {@code multicast}. */
    String transport();

    /** Why it cannot run when its transport is not enabled, and how to enable it, for error messages. */
    String transportOff();
}
