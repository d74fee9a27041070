/**
 * The shared-memory transport between ranks of one node: the per-node region file under
 * {@code /dev/shm} ({@link io.railcoll.transport.shm.NodeRegion}), single-producer
 * single-consumer byte streams between local ranks ({@link io.railcoll.transport.shm.ShmChannel}),
 * the node-step area that the engine's node steps work in (a node buffer, per-rank flags and call words, announced
 * buffers; {@link io.railcoll.transport.shm.NodeStepArea}), and single-copy reads of another
 * process's memory ({@link io.railcoll.transport.shm.Cma}). It holds no collective logic: which rank copies what
 * and waits for whom is the programs' (decision 0194).
 *
 * <p>Imports {@code io.railcoll.memory} and {@code java.*} only: no algorithm, schedule, engine or
 * other transport. Run-time failures are {@link io.railcoll.transport.shm.ShmException}s that say
 * what was awaited, from which local rank, for how long; programming errors are the usual
 * {@code IllegalArgumentException}/{@code IllegalStateException}. The layout and the protocols
 * are described in {@code docs/shared-memory.md}.
 */
package io.railcoll.transport.shm;
