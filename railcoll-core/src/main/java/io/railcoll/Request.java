package io.railcoll;

import io.railcoll.engine.CollectiveEngine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A collective started by one of the {@code i...} calls of {@link Communicator} ({@code iallgather}, ...) and not
 * necessarily finished: MPI's request. The collective runs while this rank waits or tests any of its communicator's
 * requests or makes any later call on it; there is no thread behind the program's back (transports with threads of
 * their own may land data meanwhile, but the schedule's next steps run only in a wait or test).
 *
 * <p>Its buffers belong to railcoll until the request has finished: do not read the receive buffer or change the
 * send buffer before {@link #await()} returns or {@link #test()} returns true. Once it has finished, or failed,
 * railcoll never touches them again.
 *
 * <p>Failures: a run-time failure of the collective, or of another one that broke the communicator meanwhile, is
 * thrown by {@link #await()}, {@link #await(long, TimeUnit)} and {@link #test()} as the {@link RailcollException}
 * that ended it. A request past its deadline ({@code RAILCOLL_TIMEOUT_MS} from when it was started) fails with a
 * {@link CollectiveTimeoutException} naming the collective, its sequence number and the ranks whose data was still
 * missing; like every run-time failure it breaks the communicator (every request still in flight fails with it, one
 * that finished earlier stays finished), which must then be closed.
 *
 * <p>Threading: under the communicator's thread contract (decision 0042). By default one thread at a time may use
 * the communicator, its requests included; with {@code RAILCOLL_THREAD_SAFE=on} any thread may start, test or await
 * any request at any time (a waiting thread lets others in between rounds of its wait).
 */
public sealed class Request permits MessageRequest {
    /** How long a thread-safe wait holds the communicator before it lets another thread in. */
    private static final long TURN_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final CollectiveEngine engine;
    private final CallGate gate;
    private final long seq;
    private final String call;

    Request(CollectiveEngine engine, CallGate gate, long seq, String call) {
        this.engine = engine;
        this.gate = gate;
        this.seq = seq;
        this.call = call;
    }

    /** A point-to-point request ({@link MessageRequest}): no collective, no sequence number. */
    Request(CallGate gate, String call) {
        this(null, gate, -1, call);
    }

    /**
     * The collective's sequence number on its communicator (the same on every rank): error messages name it; -1 for
     * a point-to-point request.
     */
    public long sequenceNumber() {
        return seq;
    }

    /**
     * Waits until the collective has finished on this rank, making progress on every collective in flight meanwhile.
     *
     * @throws RailcollException the failure that ended it (its deadline, a lost peer, a mismatch, ...)
     */
    public void await() {
        awaitUntil(Long.MAX_VALUE);
    }

    /**
     * Waits at most {@code timeout} for the collective to finish.
     *
     * @return true when it has finished; false when {@code timeout} passed first: the request is still in flight and
     *         may be awaited or tested again (only the collective's own deadline fails it)
     * @throws RailcollException the failure that ended it
     */
    public boolean await(long timeout, TimeUnit unit) {
        if (unit == null) {
            throw new IllegalArgumentException("await: the time unit must not be null");
        }
        long now = System.nanoTime();
        long ns = unit.toNanos(Math.max(0, timeout));
        return awaitUntil(ns >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + ns);
    }

    /**
     * Makes one round of progress on every collective in flight, without waiting, and says whether this one has
     * finished.
     *
     * @throws RailcollException the failure that ended it
     */
    public boolean test() {
        gate.enter(call, ".test");
        try {
            return engine.test(seq);
        } finally {
            gate.exit();
        }
    }

    /**
     * A future completed when the collective finishes (exceptionally with the {@link RailcollException} that ended
     * it). It completes only while some thread drives the communicator: an {@code await} or {@code test} of any of
     * its requests, or any later call on it; a program that only waits on the future must keep one of those going
     * (a thread that awaits the request, for example). Dependent actions run on the thread that completed it, after
     * its wait, and may call the communicator under its thread contract.
     */
    public CompletableFuture<Void> toCompletableFuture() {
        gate.enter(call, ".toCompletableFuture");
        try {
            return engine.future(seq);
        } finally {
            gate.exit();
        }
    }

    /** Waits for every request, in turn; the first failure is thrown at once. */
    public static void awaitAll(Request... requests) {
        checkRequests(requests);
        for (Request r : requests) {
            r.await();
        }
    }

    /**
     * Waits until one of {@code requests} has finished and returns its index (the lowest, when several have).
     *
     * @throws RailcollException the failure of a request that failed before any finished
     */
    public static int awaitAny(Request... requests) {
        checkRequests(requests);
        if (requests.length == 0) {
            throw new IllegalArgumentException("awaitAny: no requests");
        }
        Request first = requests[0];
        boolean oneCommunicator = true;
        long[] seqs = new long[requests.length];
        for (int i = 0; i < requests.length; i++) {
            oneCommunicator &= requests[i].engine == first.engine && first.engine != null;
            seqs[i] = requests[i].seq;
        }
        if (oneCommunicator) {
            while (true) {
                first.gate.enter("Request.awaitAny");
                try {
                    int i = first.engine.awaitAny(seqs, seqs.length,
                            first.gate.threadSafe() ? System.nanoTime() + TURN_NS : Long.MAX_VALUE);
                    if (i >= 0) {
                        return i;
                    }
                } finally {
                    first.gate.exit();
                }
            }
        }
        // Requests of several communicators: each is driven in turn, a short while each.
        while (true) {
            for (int i = 0; i < requests.length; i++) {
                if (requests[i].awaitUntil(System.nanoTime() + TURN_NS)) {
                    return i;
                }
            }
        }
    }

    /** Waits until the request has finished (true) or {@code untilNs} has passed (false). */
    boolean awaitUntil(long untilNs) {
        if (!gate.threadSafe()) {
            gate.enter(call, ".await");
            try {
                return engine.await(seq, untilNs);
            } finally {
                gate.exit();
            }
        }
        // Thread-safe: hold the communicator a turn at a time, so other threads may start and await calls meanwhile.
        while (true) {
            gate.enter(call, ".await");
            try {
                long turnEnd = System.nanoTime() + TURN_NS;
                if (engine.await(seq, untilNs - turnEnd < 0 ? untilNs : turnEnd)) {
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

    private static void checkRequests(Request[] requests) {
        if (requests == null) {
            throw new IllegalArgumentException("the requests must not be null");
        }
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                throw new IllegalArgumentException("request " + i + " is null");
            }
        }
    }

    @Override
    public String toString() {
        return call + " #" + seq;
    }
}
