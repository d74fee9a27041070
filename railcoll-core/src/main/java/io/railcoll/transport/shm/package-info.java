/**
 * The shared-memory transport between ranks of one node: the per-node region file under
 * {@code /dev/shm} ({@link io.railcoll.transport.shm.NodeRegion}), single-producer
 * single-consumer byte streams between local ranks ({@link io.railcoll.transport.shm.ShmChannel}),
 * node-level gather, broadcast, all-gather and barrier over a shared node buffer
 * ({@link io.railcoll.transport.shm.NodeCollectives}), and single-copy reads of another
 * process's memory ({@link io.railcoll.transport.shm.Cma}).
 *
 * <p>Imports {@code io.railcoll.memory} and {@code java.*} only: no algorithm, schedule, engine or
 * other transport. Run-time failures are {@link io.railcoll.transport.shm.ShmException}s that say
 * what was awaited, from which local rank, for how long; programming errors are the usual
 * {@code IllegalArgumentException}/{@code IllegalStateException}. The layout and the protocols
 * are described in {@code docs/shared-memory.md}.
 */
package io.railcoll.transport.shm;
