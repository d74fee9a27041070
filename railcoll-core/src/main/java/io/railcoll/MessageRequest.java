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
 * <p><b>Persistent requests</b> ({@link Communicator#sendInit}, {@link Communicator#ssendInit},
 * {@link Communicator#recvInit}, as MPI's): made inactive, run by each {@link #start()} with the arguments they were
 * made with, and inactive again once a wait or test has reported the round finished. A standard send's and a
 * receive's rounds reuse one operation (decision 0088), so a loop of start and wait makes no request or operation per
 * message; a synchronous send makes a new operation each round. A wait or test of an inactive one returns at once.
 *
 * <p>Threading: under the communicator's thread contract, as {@link Request}.
 */
public final class MessageRequest extends Request {
    private static final long TURN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PointToPoint p2p;
    /** The operation of the current (or last) round; a persistent synchronous send's is new each round. */
    private PointToPoint.Op op;
    private final CallGate gate;
    private final String call;
    private CompletableFuture<Void> future;
    /** A persistent request has been started at least once (its status is then its last round's). */
    private boolean started;
    /** What a persistent request starts each round; null for one started when it was made. */
    private final Restart restart;
    /** A persistent request started and not yet reported finished by a wait or test. */
    private boolean active;

    /** How a persistent request's round starts: checks the communicator is usable and restarts (or remakes) the op. */
    @FunctionalInterface
    interface Restart {
        PointToPoint.Op start(PointToPoint.Op last);
    }

    MessageRequest(PointToPoint p2p, PointToPoint.Op op, CallGate gate, String call) {
        this(p2p, op, gate, call, null);
    }

    /**
     * A persistent request (inactive until {@link #start()}), {@code op} its first operation, made done so that the
     * first start may restart it.
     */
    MessageRequest(PointToPoint p2p, PointToPoint.Op op, CallGate gate, String call, Restart restart) {
        super(gate, call);
        this.p2p = p2p;
        this.op = op;
        this.gate = gate;
        this.call = call;
        this.restart = restart;
    }

    /** Whether this is a persistent request ({@code sendInit}, {@code ssendInit}, {@code recvInit}). */
    public boolean isPersistent() {
        return restart != null;
    }

    /** A persistent request started and not yet reported finished; false for one that is not persistent. */
    public boolean isActive() {
        return active;
    }

    /**
     * Starts a round of this persistent request, with the buffer, peer and tag it was made with (the buffer's bytes
     * as they are now, for a send). Nothing is allocated for a standard send's or a receive's round.
     *
     * @throws IllegalStateException when it is not persistent, or still active (wait for or test it first)
     */
    public void start() {
        gate.enter(call, ".start");
        try {
            if (restart == null) {
                throw new IllegalStateException(call + ": start() is for persistent requests (sendInit, ssendInit,"
                        + " recvInit); this one started when it was made");
            }
            if (active) {
                throw new IllegalStateException(call + ": start of an active persistent request; wait for or test it"
                        + " until it has finished first");
            }
            op = restart.start(op);
            future = null;
            active = true;
            started = true;
        } finally {
            gate.exit();
        }
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
        return statusOf(finished());
    }

    /**
     * {@link #status()}{@code .source()} without making a {@link Status}: for a layer that makes a status of its own
     * on a hot path (railcoll-mpi's waits, which return the bindings' status; its decision 0168). As {@code status()}:
     * the sender of a receive, the destination of a send.
     *
     * @throws IllegalStateException when it has not finished (await or test it first)
     */
    public int statusSource() {
        PointToPoint.Op o = finished();
        return o instanceof PointToPoint.RecvOp r ? r.source() : ((PointToPoint.SendOp) o).dest();
    }

    /** {@link #status()}{@code .tag()} without making a {@link Status}, as {@link #statusSource()}. */
    public int statusTag() {
        PointToPoint.Op o = finished();
        return o instanceof PointToPoint.RecvOp r ? r.tag() : ((PointToPoint.SendOp) o).startTag();
    }

    /** {@link #status()}{@code .count()} without making a {@link Status}, as {@link #statusSource()}. */
    public long statusCount() {
        PointToPoint.Op o = finished();
        return o instanceof PointToPoint.RecvOp r ? r.count() : ((PointToPoint.SendOp) o).bytes();
    }

    /** The finished operation whose status is asked for; an IllegalStateException before it has finished. */
    private PointToPoint.Op finished() {
        if (restart != null && !active && !started) {
            throw new IllegalStateException(call + ": the persistent request has not been started");
        }
        if (!op.isDone()) {
            throw new IllegalStateException(call + ": the request has not finished yet");
        }
        return op;
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
            if (restart != null && !active) {
                return true; // inactive: as MPI's test of an inactive persistent request
            }
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
                if (restart != null && !active) {
                    return true;
                }
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

    /** After a wait or test: throws a receive's truncation; completes the future; a persistent one is inactive. */
    private boolean finished(boolean done) {
        if (!done) {
            return false;
        }
        active = false;
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
