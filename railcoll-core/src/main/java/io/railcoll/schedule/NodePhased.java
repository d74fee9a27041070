package io.railcoll.schedule;

import java.util.Optional;

/**
 * An algorithm whose intra-node phases are node collectives in shared memory (paper 000 section 4.2: every rank
 * copies into or out of one node buffer and waits on flags, not on messages), run by the node's ranks together,
 * with at most one schedule among the nodes' masters between them (decision 0011):
 * <ol>
 *   <li>every node runs its {@link #before} step (e.g. a node gather to its master);</li>
 *   <li>the engine runs the {@link #between} schedule on every rank; only masters have ops in it;</li>
 *   <li>every node runs its {@link #after} step (e.g. a node broadcast from its master).</li>
 * </ol>
 * Nodes may run different steps (the root's node of a broadcast is the only one that broadcasts first), but every
 * rank of a node runs the same ones. A node of one rank does its steps as local copies. Carried out by the
 * {@code shm} transport: it can run only when shared memory is on, which the selector checks. Its
 * {@link #program programs} are the point-to-point schedule with the same data movement, which the checker verifies
 * and the simulator runs.
 */
public interface NodePhased extends TransportProvided {
    /** The transport that carries the node steps out. */
    String TRANSPORT = "shm";

    /** What the ranks of {@code node} do first. */
    NodeStep before(Shape shape, int node);

    /**
     * The schedule among node masters run between the node steps of {@code shape} (every other rank's program is
     * empty), if any; none where one master would have nothing to exchange (one node), so that no call pays the
     * engine's round for an empty schedule.
     */
    Optional<Algorithm> between(Shape shape);

    /** What the ranks of {@code node} do last. */
    NodeStep after(Shape shape, int node);

    @Override
    default String transport() {
        return TRANSPORT;
    }

    @Override
    default String transportOff() {
        return "shared memory between the ranks of a node is off (RAILCOLL_SHM=off)";
    }
}
