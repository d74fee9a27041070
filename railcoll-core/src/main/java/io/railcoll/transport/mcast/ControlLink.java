package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;

/**
 * Point-to-point control messages between the members of a multicast group: ACK/NACK reports up the
 * synchronization tree, releases and retransmission requests down it, fail-over notices and, after a fail-over,
 * the broadcast data itself. Peers are named by job rank.
 *
 * <p>Contract: delivery is reliable and in order per (sender, receiver) pair (TCP rails and
 * {@link TcpControlLink} are); a peer that is gone surfaces as an {@link io.railcoll.PeerLostException} from
 * {@link #send} or {@link #poll}. Both calls are made by the protocol's owner thread and never block for long.
 * The link is opened and closed by whoever built the {@link MulticastBroadcast}, not by it.
 */
public interface ControlLink {

    /** Queues {@code message[position, limit)} for {@code peerRank}; the bytes are copied before this returns. */
    void send(int peerRank, ByteBuffer message);

    /** Hands every message that has arrived to {@code handler}, in order per sender; returns how many. */
    int poll(Handler handler);

    /**
     * Asks the link to run {@code wakeup} (on its own thread, quickly) whenever a message arrives, so an owner
     * that blocks between polls notices it at once. Links without threads of their own may ignore this.
     */
    default void onArrival(Runnable wakeup) {
    }

    /** Receives control messages; the buffer is valid only during the call. */
    @FunctionalInterface
    interface Handler {
        void onMessage(int fromRank, ByteBuffer message);
    }
}
