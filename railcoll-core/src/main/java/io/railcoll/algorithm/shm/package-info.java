/**
 * Collectives of a one-node job that the node's shared memory carries out itself ({@code allgather.shm},
 * {@code gather.shm}, {@code broadcast.shm}, {@code barrier.shm}): the shared-memory gather, broadcast and
 * all-gather of paper 000 section 4.2 run as whole collectives, every rank copying into or out of one node buffer
 * and waiting on node-wide counters, instead of point-to-point puts through the rings. They are
 * {@link io.railcoll.schedule.TransportProvided} catalog entries (transport {@code shm}, see
 * docs/decisions/0011); the communicator hands them to the node region. Imports {@code schedule},
 * {@code topology} and the point-to-point algorithms whose programs stand for them; nothing of the transports.
 */
package io.railcoll.algorithm.shm;
