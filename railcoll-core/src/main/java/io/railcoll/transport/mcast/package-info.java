/**
 * Reliable broadcast over UDP multicast (paper 003, sections 4 and 5): a multicast group per communicator on one
 * rail, a ring of broadcast channels so consecutive broadcasts pipeline, delayed synchronization through a tree
 * of ACK/NACK reports only when the channels run out, a CRC32C or additive checksum on every datagram,
 * retransmission of what was lost or corrupted, and fail-over to a point-to-point k-nomial tree when multicast is
 * unavailable or keeps failing.
 *
 * <p>The parts: {@link io.railcoll.transport.mcast.BroadcastProtocol} (the state machine, time passed in),
 * {@link io.railcoll.transport.mcast.DatagramHeader} and {@link io.railcoll.transport.mcast.Fragmenter}
 * (the wire layout), {@link io.railcoll.transport.mcast.MulticastEndpoint} (the UDP socket),
 * {@link io.railcoll.transport.mcast.FaultInjectingPort} (loss, corruption, duplication, reordering on the receive
 * path), {@link io.railcoll.transport.mcast.KnomialTree} (sync and fail-over trees),
 * {@link io.railcoll.transport.mcast.ControlLink} (point-to-point control messages, implemented here over
 * authenticated TCP by {@link io.railcoll.transport.mcast.TcpControlLink}) and the blocking facade
 * {@link io.railcoll.transport.mcast.MulticastBroadcast}.
 *
 * <p>Must not import schedules, algorithms, selection or the engine: the engine drives this package, not the
 * other way round.
 */
package io.railcoll.transport.mcast;
