package io.railcoll.schedule;

/**
 * An algorithm whose programs hold node steps ({@link Op.NodeWrite}, {@link Op.NodeRead}, {@link Op.Publish},
 * {@link Op.AwaitFlag}): the engine runs them like any schedule, but only where the ranks of a node share a node
 * region, which the selector checks (the capability {@link #TRANSPORT} is enabled on the world communicator when
 * shared memory is on). Decision 0101.
 */
public interface NodeRegionUser extends Algorithm {
    /** The capability a communicator enables when its node's ranks share a node region. */
    String TRANSPORT = "shm";
}
