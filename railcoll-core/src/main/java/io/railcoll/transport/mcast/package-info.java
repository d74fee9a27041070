/**
 * Reliable broadcast over UDP multicast (paper 003, sections 4 and 5): a multicast group per communicator on one
 * rail, a ring of broadcast channels so consecutive broadcasts pipeline, delayed synchronization through a tree
 * of ACK/NACK reports only when the channels run out, a CRC32C or additive checksum on every datagram,
 * retransmission of what was lost or corrupted, and fail-over to a point-to-point k-nomial tree when multicast is
 * unavailable or keeps failing.
 *
 * <p>The parts: {@link io.railcoll.transport.mcast.BroadcastProtocol} (the state machine, time passed in) with
 * {@code SyncRound} (the delayed synchronization's bookkeeping), {@code ChannelSlot} and {@code FragmentSet}
 * (channels and in-place reassembly) and {@code FailoverTree} (the point-to-point data path);
 * {@link io.railcoll.transport.mcast.DatagramHeader}, {@link io.railcoll.transport.mcast.Fragmenter} and
 * {@link io.railcoll.transport.mcast.ChecksumKind} (the wire); {@link io.railcoll.transport.mcast.MulticastEndpoint}
 * (the UDP socket) and {@link io.railcoll.transport.mcast.MulticastRoutes} (is multicast allowed on this rail);
 * {@link io.railcoll.transport.mcast.FaultInjectingPort} (loss, corruption, duplication, reordering on the receive
 * path); {@link io.railcoll.transport.mcast.KnomialTree}; {@link io.railcoll.transport.mcast.ControlLink} (point-to-point
 * control messages; {@link io.railcoll.transport.mcast.TcpControlLink} over authenticated TCP,
 * {@link io.railcoll.transport.mcast.ControlMux} for several groups over one link); and the blocking facade
 * {@link io.railcoll.transport.mcast.MulticastBroadcast}, configured by
 * {@link io.railcoll.transport.mcast.MulticastSettings} for a {@link io.railcoll.transport.mcast.MulticastGroup}.
 * {@code docs/multicast.md} describes the protocol, the layouts and how the engine plugs it in.
 *
 * <p>Must not import schedules, algorithms, selection or the engine: the engine drives this package, not the
 * other way round.
 */
package io.railcoll.transport.mcast;
