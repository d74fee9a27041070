/**
 * Collectives of a one-node job in the node's shared memory. {@code gather.shm}, {@code allgather.shm} (decision
 * 0190), {@code allreduce.shm}, {@code broadcast.shm-pipeline} and the single-copy algorithms are node-step programs
 * the engine runs. {@code broadcast.shm} and {@code barrier.shm}, the shared-memory broadcast of paper 000 section
 * 4.2, run as whole collectives, every rank copying into or out of one node buffer
 * and waiting on node-wide counters, instead of point-to-point puts through the rings. They are
 * {@link io.railcoll.schedule.TransportProvided} catalog entries (transport {@code shm}, see
 * docs/decisions/0011); the communicator hands them to the node region. Imports {@code schedule},
 * {@code topology} and the point-to-point algorithms whose programs stand for them; nothing of the transports.
 */
package io.railcoll.algorithm.shm;
