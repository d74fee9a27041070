package io.railcoll;

import io.railcoll.engine.PointToPoint;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A point-to-point send or receive started by {@link Communicator#isend}, {@link Communicator#issend} or
 * {@link Communicator#irecv}: a {@link Request} that, once finished, has a {@link #status()}. Its buffer is railcoll's
 * until then. It progresses whenever this rank waits or tests any request of its communicator or makes any call on
 * it (the receiving transports land data meanwhile); its deadline, {@code RAILCOLL_TIMEOUT_MS} from when it started,
 * fails it and the communicator with a message naming the operation, the peer and the tag. A receive whose message
 * was longer than its buffer finishes with a {@link TruncatedMessageException} from every wait and test, and leaves
 * the communicator usable.
 *
 * <p>Threading: under the communicator's thread contract, as {@link Request}.
 */
public final class MessageRequest extends Request {
    private static final long TURN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PointToPoint p2p;
    private final PointToPoint.Op op;
    private final CallGate gate;
    private final String call;
    private CompletableFuture<Void> future;

    MessageRequest(PointToPoint p2p, PointToPoint.Op op, CallGate gate, String call) {
        super(gate, call);
        this.p2p = p2p;
        this.op = op;
        this.gate = gate;
        this.call = call;
    }

    /** Whether this is a receive (an {@code irecv}). */
    public boolean isReceive() {
        return op instanceof PointToPoint.RecvOp;
    }

    /**
     * What the finished operation moved: for a receive, the sender, the tag and the bytes received; for a send, the
     * destination, the tag and the bytes sent.
     *
     * @throws IllegalStateException when it has not finished (await or test it first)
     */
    public Status status() {
        if (!op.isDone()) {
            throw new IllegalStateException(call + ": the request has not finished yet");
        }
        return statusOf(op);
    }

    static Status statusOf(PointToPoint.Op op) {
        if (op instanceof PointToPoint.RecvOp r) {
            return new Status(r.source(), r.tag(), r.count());
        }
        PointToPoint.SendOp s = (PointToPoint.SendOp) op;
        return new Status(s.dest(), s.startTag(), s.bytes());
    }

    /**
     * Cancels a receive that no message has matched yet: it finishes at once, having received nothing (its status
     * has source and tag {@link Communicator#ANY_SOURCE}/{@link Communicator#ANY_TAG} and count 0). Returns false, and
     * changes nothing, when a message has matched it already (or for a send, which cannot be cancelled).
     */
    public boolean cancel() {
        gate.enter(call, ".cancel");
        try {
            return op instanceof PointToPoint.RecvOp r && p2p.cancel(r);
        } finally {
            gate.exit();
        }
    }

    /** Whether this receive was cancelled by {@link #cancel()}. */
    public boolean isCancelled() {
        return op instanceof PointToPoint.RecvOp r && r.cancelled();
    }

    @Override
    public boolean test() {
        gate.enter(call, ".test");
        try {
            return finished(p2p.await(op, System.nanoTime()));
        } finally {
            gate.exit();
        }
    }

    @Override
    boolean awaitUntil(long untilNs) {
        while (true) {
            gate.enter(call, ".await");
            try {
                // Thread-safe: a turn at a time, so other threads may start and await calls meanwhile.
                long turnEnd = gate.threadSafe() ? System.nanoTime() + TURN_NS : Long.MAX_VALUE;
                if (finished(p2p.await(op, untilNs - turnEnd < 0 ? untilNs : turnEnd))) {
                    return true;
                }
                if (untilNs != Long.MAX_VALUE && System.nanoTime() - untilNs >= 0) {
                    return false;
                }
            } finally {
                gate.exit();
            }
        }
    }

    /**
     * A future completed when a wait or test of this request (or of another, or a later call) sees it finished; as
     * for collectives, nothing completes it behind the program's back.
     */
    @Override
    public CompletableFuture<Void> toCompletableFuture() {
        gate.enter(call, ".toCompletableFuture");
        try {
            if (future == null) {
                future = new CompletableFuture<>();
            }
            if (op.isDone()) {
                finished(true);
            }
            return future;
        } catch (RailcollException e) {
            return future;
        } finally {
            gate.exit();
        }
    }

    /** After a wait or test: throws a receive's truncation; completes the future. */
    private boolean finished(boolean done) {
        if (!done) {
            return false;
        }
        TruncatedMessageException t = truncation(op, call);
        if (future != null) {
            if (t != null) {
                future.completeExceptionally(t);
            } else {
                future.complete(null);
            }
        }
        if (t != null) {
            throw t;
        }
        return true;
    }

    /** The truncation error of a finished receive, or null. */
    static TruncatedMessageException truncation(PointToPoint.Op op, String call) {
        if (op instanceof PointToPoint.RecvOp r && r.truncatedBytes() > 0) {
            return new TruncatedMessageException(call + ": the message of " + r.truncatedBytes() + " bytes from rank "
                    + r.source() + " (tag " + r.tag() + ") is longer than the " + r.count() + "-byte buffer; its first "
                    + r.count() + " bytes were received, the rest dropped", statusOf(r), r.truncatedBytes());
        }
        return null;
    }

    @Override
    public String toString() {
        return call + " " + op;
    }
}
