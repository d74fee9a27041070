package mpi;

import java.util.Arrays;
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
    private static final int SPINS = 100;
    private static final int YIELDS = 1_000;
    private static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(50);
    /** What {@link #awaitOne}, {@link #testOne} and the counts of the some forms return when every request is null. */
    private static final int ALL_NULL = Integer.MIN_VALUE;
    /** What testSome and testSomeStatus return when none has finished: empty, so one of each serves every call. */
    private static final int[] NO_INDICES = new int[0];
    private static final Status[] NO_STATUSES = new Status[0];

    private Completions() {
    }

    // Every form allocates only what it returns (decisions 0185, 0168): the forms that report no status nothing; the
    // others their int[] or Status[] and one Status per request reported (made by Operation.reportedStatus). No
    // array of operations, no boolean[] of who finished, no record: an operation's own "done" word (Operation.over)
    // says which ones a pass found finished, and a request is completed only when the call reports it. Rules: waitAll
    // completes each request as it finishes; testAll none unless all have; waitAny and testAny report the lowest
    // index that has finished; waitSome and testSome every one that has.

    /** {@link Request#waitAll}: waits until every request has finished, completing each as it does. */
    static void awaitAll(Request[] requests) throws MPIException {
        check(requests);
        awaitAll(requests, null);
    }

    /** {@link Request#waitAllStatus}: as {@link #awaitAll}, every request's status (no index; empty for a null one). */
    static Status[] awaitAllStatus(Request[] requests) throws MPIException {
        check(requests);
        Status[] statuses = new Status[requests.length];
        awaitAll(requests, statuses);
        for (int i = 0; i < statuses.length; i++) {
            if (statuses[i] == null) {
                statuses[i] = Status.empty(); // null when the call began
            }
        }
        return statuses;
    }

    /** Waits for every request, completing each as it finishes; its status into {@code statuses} unless null. */
    private static void awaitAll(Request[] requests, Status[] statuses) throws MPIException {
        for (int round = 0; ; round++) {
            int open = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++) {
                Operation o = requests[i].active();
                if (o != null) {
                    if (test(requests[i], o)) {
                        complete(requests, i, o, statuses);
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
                Operation o = awaitAlone(requests[last]); // railcoll's own wait, which idles as it should
                complete(requests, last, o, statuses);
                return;
            }
            idle(round);
        }
    }

    /** {@link Request#testAll}: true, and every request completed, if all have finished; else false, none completed. */
    static boolean testAll(Request[] requests) throws MPIException {
        if (!allFinished(requests)) {
            return false;
        }
        completeAll(requests, null);
        return true;
    }

    /** {@link Request#testAllStatus}: every status (as waitAllStatus's) if all have finished, else null. */
    static Status[] testAllStatus(Request[] requests) throws MPIException {
        if (!allFinished(requests)) {
            return null;
        }
        Status[] statuses = new Status[requests.length];
        completeAll(requests, statuses);
        return statuses;
    }

    /** One test of every active request (each makes progress): whether all have finished. Completes none. */
    private static boolean allFinished(Request[] requests) throws MPIException {
        check(requests);
        boolean all = true;
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null) {
                all &= test(requests[i], o);
            }
        }
        return all;
    }

    /** Completes every request (all finished), its status into {@code statuses} unless null (empty for a null one). */
    private static void completeAll(Request[] requests, Status[] statuses) throws MPIException {
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null) {
                complete(requests, i, o, statuses);
            } else if (statuses != null) {
                statuses[i] = Status.empty();
            }
        }
    }

    /** {@link Request#waitAny}: the lowest index that has finished (completed), or UNDEFINED if every one is null. */
    static int awaitAny(Request[] requests) throws MPIException {
        int i = awaitOne(requests);
        if (i == ALL_NULL) {
            return MPI.UNDEFINED;
        }
        complete(requests[i], requests[i].active());
        return i;
    }

    /** {@link Request#waitAnyStatus}: as {@link #awaitAny}, its status with the index. */
    static Status awaitAnyStatus(Request[] requests) throws MPIException {
        int i = awaitOne(requests);
        if (i == ALL_NULL) {
            return Status.empty().setIndex(MPI.UNDEFINED);
        }
        return completeReporting(requests[i], requests[i].active(), i);
    }

    /** {@link Request#testAny}: the lowest index that has finished (completed), else UNDEFINED. */
    static int testAny(Request[] requests) throws MPIException {
        int i = testOne(requests);
        if (i < 0) {
            return MPI.UNDEFINED;
        }
        complete(requests[i], requests[i].active());
        return i;
    }

    /** {@link Request#testAnyStatus}: the status (with its index) of the lowest that has finished, else null. */
    static Status testAnyStatus(Request[] requests) throws MPIException {
        int i = testOne(requests);
        if (i == ALL_NULL) {
            return Status.empty().setIndex(MPI.UNDEFINED);
        }
        return i < 0 ? null : completeReporting(requests[i], requests[i].active(), i);
    }

    /** Waits until one has finished: the lowest such index (its request not yet completed), or ALL_NULL. */
    private static int awaitOne(Request[] requests) throws MPIException {
        check(requests);
        for (int round = 0; ; round++) {
            int open = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++) {
                Operation o = requests[i].active();
                if (o != null) {
                    if (test(requests[i], o)) {
                        return i;
                    }
                    open++;
                    last = i;
                }
            }
            if (open == 0) {
                return ALL_NULL;
            }
            if (open == 1) {
                awaitAlone(requests[last]);
                return last;
            }
            idle(round);
        }
    }

    /** One test of each in turn: the lowest index found finished (not completed), UNDEFINED if none, or ALL_NULL. */
    private static int testOne(Request[] requests) throws MPIException {
        check(requests);
        boolean any = false;
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null) {
                if (test(requests[i], o)) {
                    return i;
                }
                any = true;
            }
        }
        return any ? MPI.UNDEFINED : ALL_NULL;
    }

    /** {@link Request#waitSome}: the indices of those that have finished, waiting for one; null if all are null. */
    static int[] awaitSome(Request[] requests) throws MPIException {
        int n = awaitSomeCount(requests);
        return n == ALL_NULL ? null : indices(requests, n);
    }

    /** {@link Request#waitSomeStatus}: as {@link #awaitSome}, their statuses with their indices. */
    static Status[] awaitSomeStatus(Request[] requests) throws MPIException {
        int n = awaitSomeCount(requests);
        return n == ALL_NULL ? null : statuses(requests, n);
    }

    /** {@link Request#testSome}: the indices of those that have finished, possibly none; null if all are null. */
    static int[] testSome(Request[] requests) throws MPIException {
        int n = testEach(requests);
        return n == ALL_NULL ? null : indices(requests, n);
    }

    /** {@link Request#testSomeStatus}: as {@link #testSome}, their statuses with their indices. */
    static Status[] testSomeStatus(Request[] requests) throws MPIException {
        int n = testEach(requests);
        return n == ALL_NULL ? null : statuses(requests, n);
    }

    /** Waits until at least one has finished: how many have (none completed yet), or ALL_NULL. */
    private static int awaitSomeCount(Request[] requests) throws MPIException {
        check(requests);
        for (int round = 0; ; round++) {
            int open = 0;
            int finished = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++) {
                Operation o = requests[i].active();
                if (o != null) {
                    if (test(requests[i], o)) {
                        finished++;
                    } else {
                        open++;
                        last = i;
                    }
                }
            }
            if (finished > 0) {
                return finished;
            }
            if (open == 0) {
                return ALL_NULL;
            }
            if (open == 1) {
                awaitAlone(requests[last]); // the only one: railcoll's own wait
                return 1;
            }
            idle(round);
        }
    }

    /** One test of every active request: how many have finished (none completed yet), or ALL_NULL. */
    private static int testEach(Request[] requests) throws MPIException {
        check(requests);
        int active = 0;
        int finished = 0;
        for (int i = 0; i < requests.length; i++) {
            Operation o = requests[i].active();
            if (o != null) {
                active++;
                finished += test(requests[i], o) ? 1 : 0;
            }
        }
        return active == 0 ? ALL_NULL : finished;
    }

    /** The indices of the {@code n} requests the pass before found finished, each completed. */
    private static int[] indices(Request[] requests, int n) throws MPIException {
        int[] indices = n == 0 ? NO_INDICES : new int[n];
        int k = 0;
        for (int i = 0; i < requests.length && k < n; i++) {
            Operation o = requests[i].active();
            if (o != null && o.over()) {
                indices[k++] = i;
                complete(requests[i], o);
            }
        }
        return k == n ? indices : Arrays.copyOf(indices, k); // fewer: a request listed twice (erroneous in MPI)
    }

    /** The statuses (with their indices) of the {@code n} requests the pass before found finished, each completed. */
    private static Status[] statuses(Request[] requests, int n) throws MPIException {
        Status[] statuses = n == 0 ? NO_STATUSES : new Status[n];
        int k = 0;
        for (int i = 0; i < requests.length && k < n; i++) {
            Operation o = requests[i].active();
            if (o != null && o.over()) {
                statuses[k++] = completeReporting(requests[i], o, i);
            }
        }
        return k == n ? statuses : Arrays.copyOf(statuses, k); // as in indices
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

    /** Waits for {@code r}'s operation alone (not completing it) and returns it; a failure completes it, thrown. */
    private static Operation awaitAlone(Request r) throws MPIException {
        Operation o = r.active();
        try {
            o.await();
        } catch (MPIException | RuntimeException e) {
            r.completeIfOver(o);
            throw e;
        }
        return o;
    }

    /** A request the call reports finished: its handle null (a persistent one inactive), its operation recycled. */
    private static void complete(Request r, Operation o) {
        r.completed();
        o.recycle();
    }

    /** {@link #complete}, with the status it reports ({@code index} set; 0 where the form sets none). */
    private static Status completeReporting(Request r, Operation o, int index) throws MPIException {
        Status s = o.reportedStatus(index);
        complete(r, o);
        return s;
    }

    /** {@link #complete} request {@code i}, its status into {@code statuses[i]} unless that is null. */
    private static void complete(Request[] requests, int i, Operation o, Status[] statuses) throws MPIException {
        if (statuses == null) {
            complete(requests[i], o);
        } else {
            statuses[i] = completeReporting(requests[i], o, 0);
        }
    }

    private static boolean test(Request r, Operation o) throws MPIException {
        try {
            return o.test();
        } catch (MPIException | RuntimeException e) {
            r.completeIfOver(o);
            throw e;
        }
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
