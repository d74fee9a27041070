/**
 * Algorithms whose programs work in the node's shared memory: node steps over the node region (copies into and out
 * of the node buffer, flags raised and awaited; paper 000 section 4.2's shared-memory gather, broadcast and
 * all-gather, the node barrier, the node all-reduce) and single-copy node steps (reads and writes of node-mates'
 * announced buffers). They are ordinary schedules: the checker verifies their programs, the simulator prices them,
 * and the engine runs exactly those programs where the node region is enabled ({@link
 * io.railcoll.schedule.NodeRegionUser}, {@link io.railcoll.schedule.PeerAccessUser}). Imports {@code schedule},
 * {@code topology} and the point-to-point algorithms they compose with; nothing of the transports.
 */
package io.railcoll.algorithm.shm;
