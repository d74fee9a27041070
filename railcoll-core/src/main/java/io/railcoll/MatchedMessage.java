package io.railcoll;

import java.lang.foreign.MemorySegment;

/**
 * A message taken out of matching by {@link Communicator#mprobe} or {@link Communicator#improbe} (MPI's matched
 * probe, MPI_Mprobe): no receive or probe of any thread can take it any more, so a program that probes for a size
 * and then receives cannot have the message taken by another thread between the two. Receive it once, with
 * {@link #recv} or {@link #irecv}; a second receive is refused.
 *
 * <p>Threading: under its communicator's thread contract, as the communicator's other calls.
 */
public final class MatchedMessage {
    /** Its communicator's point-to-point calls, which receive it. */
    private final PointToPointCalls calls;
    private final io.railcoll.engine.PointToPoint.Matched matched;

    MatchedMessage(PointToPointCalls calls, io.railcoll.engine.PointToPoint.Matched matched) {
        this.calls = calls;
        this.matched = matched;
    }

    /** Who sent it, its tag and its length in bytes. */
    public Status status() {
        return new Status(matched.source(), matched.tag(), matched.count());
    }

    /**
     * Receives it into the start of {@code into}, waiting for its last bytes if they are still arriving.
     *
     * @throws TruncatedMessageException it is longer than {@code into} (its first bytes were received)
     * @throws IllegalStateException     it was received already
     */
    public Status recv(MemorySegment into) {
        return calls.mrecv(matched, into);
    }

    public Status recv(byte[] into) {
        return recv(MemorySegment.ofArray(requireArray(into)));
    }

    /** Starts {@link #recv}: {@code into} is railcoll's until the request has finished. */
    public MessageRequest irecv(MemorySegment into) {
        return calls.imrecv(matched, into);
    }

    public MessageRequest irecv(byte[] into) {
        return irecv(MemorySegment.ofArray(requireArray(into)));
    }

    private static byte[] requireArray(byte[] a) {
        if (a == null) {
            throw new IllegalArgumentException("a matched message's receive: the buffer must not be null");
        }
        return a;
    }

    @Override
    public String toString() {
        return "matched " + matched;
    }
}
