package mpi;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The array forms of {@link Request}'s waits and tests. A wait tests every active request in turn until enough have
 * finished, idling between rounds (spin, then yield, then short sleeps), and awaits the last one alone: requests of
 * several communicators (or of point-to-point and collectives) all make progress, whatever order the ranks list them
 * in, which waiting for each in turn would not give. Every wait ends, because every operation has a deadline of its
 * own that fails it. A handle is set to null only when the call reports its request finished.
 */
final class Completions {
    /** How many finished requests a call reports. */
    enum Mode {
        /** waitAny, testAny: the lowest finished one. */
        ONE,
        /** waitSome, testSome: every finished one. */
        SOME,
        /** waitAll, testAll: all, or (a test) none. */
        ALL
    }

    /** The requests a call reported finished (indices ascending) and their statuses (index set, except for ALL). */
    record Done(int[] indices, Status[] statuses) {
        static final Done NONE = new Done(new int[0], new Status[0]);
    }

    private static final int SPINS = 100;
    private static final int YIELDS = 1_000;
    private static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private Completions() {
    }

    // ---- the forms that report no status (waitAll, testAll, waitAny, testAny): no array, no record, no status per
    // call (decision 0185), so a loop of persistent rounds completed by them allocates nothing. Same rules as the
    // others: waitAll completes each request as it finishes; testAll completes none unless all have finished;
    // waitAny and testAny report the lowest index that has finished.

    /** {@link Request#waitAll}: waits until every request has finished, completing each as it does. */
    static void awaitAll(Request[] requests) throws MPIException {
        check(requests);
        for (int round = 0; ; round++) {
            int open = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++) {
                Operation o = requests[i].active();
                if (o != null) {
                    if (test(requests[i], o)) {
                        finish(requests[i], o);
                    } else {
                        open++;
                        last = i;
                    }
                }
            }
            if (open == 0) {
                return;
            }
            if (open == 1) {
                awaitAlone(requests[last]); // railcoll's own wait, which idles as it should
                return;
            }
            idle(round);
        }
    }

    /** {@link Request#testAll}: true, and every request completed, if all have finished; else false, none completed. */
    static boolean testAll(Request[] requests) throws MPIException {
        check(requests);
        boolean all = true;
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null) {
                all &= test(requests[i], o); // every one tested: each makes progress
            }
        }
        if (!all) {
            return false;
        }
        for (Request r : requests) {
            Operation o = r.active();
            if (o != null) {
                finish(r, o);
            }
        }
        return true;
    }

    /** {@link Request#waitAny}: the lowest index that has finished (completed), or UNDEFINED if every one is null. */
    static int awaitAny(Request[] requests) throws MPIException {
        check(requests);
        for (int round = 0; ; round++) {
            int open = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++) {
                Operation o = requests[i].active();
                if (o != null) {
                    if (test(requests[i], o)) {
                        finish(requests[i], o);
                        return i;
                    }
                    open++;
                    last = i;
                }
            }
            if (open == 0) {
                return MPI.UNDEFINED;
            }
            if (open == 1) {
                awaitAlone(requests[last]);
                return last;
            }
            idle(round);
        }
    }

    /** {@link Request#testAny}: the lowest index that has finished (completed), else UNDEFINED. */
    static int testAny(Request[] requests) throws MPIException {
        check(requests);
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null && test(requests[i], o)) {
                finish(requests[i], o);
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    private static void check(Request[] requests) throws MPIException {
        MPI.check();
        Objects.requireNonNull(requests, "requests");
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                throw new NullPointerException("request " + i + " is null; use MPI.REQUEST_NULL for an empty slot");
            }
        }
    }

    /** Waits for {@code r}'s operation alone and completes it; a failure completes it before it is thrown. */
    private static void awaitAlone(Request r) throws MPIException {
        Operation o = r.active();
        try {
            o.await();
        } catch (MPIException | RuntimeException e) {
            r.completeIfOver(o);
            throw e;
        }
        finish(r, o);
    }

    /** A request reported finished: its handle null (a persistent one inactive), its operation recycled if it may be. */
    private static void finish(Request r, Operation o) {
        r.completed();
        o.recycle();
    }

    /** Waits until {@code mode} is met; null if every request is null (ONE, SOME), all empty statuses (ALL). */
    static Done await(Request[] requests, Mode mode) throws MPIException {
        Operation[] ops = operations(requests);
        boolean[] finished = new boolean[ops.length];
        int active = 0;
        for (Operation o : ops) {
            active += o == null ? 0 : 1;
        }
        if (active == 0) {
            return mode == Mode.ALL ? report(requests, ops, finished, mode) : null;
        }
        for (int round = 0; ; round++) {
            int open = 0;
            int last = -1;
            boolean any = false;
            for (int i = 0; i < ops.length; i++) {
                if (ops[i] != null && !finished[i]) {
                    finished[i] = test(requests[i], ops[i]);
                    any |= finished[i];
                    if (!finished[i]) {
                        open++;
                        last = i;
                    }
                }
            }
            if (open == 0 || (any && mode != Mode.ALL)) {
                return report(requests, ops, finished, mode);
            }
            if (open == 1 && (mode == Mode.ALL || open == active)) {
                // The last one (or the only one) alone: its wait is railcoll's, which idles as it should.
                try {
                    ops[last].await();
                } catch (MPIException | RuntimeException e) {
                    requests[last].completed();
                    throw e;
                }
                finished[last] = true;
                return report(requests, ops, finished, mode);
            }
            idle(round);
        }
    }

    /** One test of every active request; null if every request is null (ONE, SOME). */
    static Done test(Request[] requests, Mode mode) throws MPIException {
        Operation[] ops = operations(requests);
        boolean[] finished = new boolean[ops.length];
        boolean anyActive = false;
        boolean all = true;
        for (int i = 0; i < ops.length; i++) {
            if (ops[i] != null) {
                anyActive = true;
                finished[i] = test(requests[i], ops[i]);
                all &= finished[i];
            }
        }
        if (!anyActive && mode != Mode.ALL) {
            return null;
        }
        if (mode == Mode.ALL && !all) {
            return Done.NONE;
        }
        return report(requests, ops, finished, mode);
    }

    /** The active operations of {@code requests} (null for a null request), after MPI.check. */
    private static Operation[] operations(Request[] requests) throws MPIException {
        MPI.check();
        Objects.requireNonNull(requests, "requests");
        Operation[] ops = new Operation[requests.length];
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                throw new NullPointerException("request " + i + " is null; use MPI.REQUEST_NULL for an empty slot");
            }
            ops[i] = requests[i].active();
        }
        return ops;
    }

    private static boolean test(Request r, Operation o) throws MPIException {
        try {
            return o.test();
        } catch (MPIException | RuntimeException e) {
            r.completeIfOver(o);
            throw e;
        }
    }

    /** Completes the handles the call reports and collects their statuses. */
    private static Done report(Request[] requests, Operation[] ops, boolean[] finished, Mode mode)
            throws MPIException {
        if (mode == Mode.ALL) {
            int[] indices = new int[ops.length];
            Status[] statuses = new Status[ops.length];
            for (int i = 0; i < ops.length; i++) {
                indices[i] = i;
                statuses[i] = ops[i] == null ? Status.empty() : ops[i].status();
                requests[i].completed();
            }
            return new Done(indices, statuses);
        }
        int n = 0;
        for (boolean f : finished) {
            n += f ? 1 : 0;
        }
        n = mode == Mode.ONE ? Math.min(n, 1) : n;
        int[] indices = new int[n];
        Status[] statuses = new Status[n];
        for (int i = 0, k = 0; i < ops.length && k < n; i++) {
            if (finished[i]) {
                indices[k] = i;
                statuses[k++] = ops[i].status().withIndex(i);
                requests[i].completed();
            }
        }
        return new Done(indices, statuses);
    }

    private static void idle(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else if (round < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(PARK_NS);
        }
    }
}
