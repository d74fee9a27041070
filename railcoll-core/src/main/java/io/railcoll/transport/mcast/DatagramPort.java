package io.railcoll.transport.mcast;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where the protocol sends and receives multicast datagrams: the real UDP socket ({@link MulticastEndpoint}), a
 * fault-injecting wrapper ({@link FaultInjectingPort}) or an in-memory network in tests. Non-blocking; one owner
 * thread; whoever opened it closes it.
 */
public interface DatagramPort extends AutoCloseable {

    /**
     * Sends {@code datagram[position, limit)} to every member of the group. Returns false when the socket had no
     * room (try again later); throws when the group cannot be reached at all (no route).
     */
    boolean send(ByteBuffer datagram) throws IOException;

    /** Receives one datagram into {@code into} (cleared first; position 0, limit = length after); false if none. */
    boolean receive(ByteBuffer into) throws IOException;

    /**
     * Blocks up to {@code maxWaitNs} until a datagram may be waiting, or {@link #wakeup} is called; may return
     * early. The default parks the thread (so {@code wakeup} must unpark it; ports with a selector do better).
     */
    default void await(long maxWaitNs) {
        java.util.concurrent.locks.LockSupport.parkNanos(maxWaitNs);
    }

    /** Ends an {@link #await} in progress (or the next one) early; callable from any thread. */
    default void wakeup() {
    }

    /** What this port is, for error messages: group, port, interface. */
    String describe();

    @Override
    void close();
}
