package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Completes requests of the random call test in an order each rank draws for itself, by one of the ways programs
 * complete them: {@code waitFor} or a {@code test} loop one by one, {@code waitAll}, {@code waitAny}, {@code waitSome},
 * or loops of {@code testSome}, {@code testAny} or {@code testAll} over the array (and their {@code *Status} forms,
 * {@link #statuses}). Each index must be reported once; afterwards the array calls must see nothing active. Every loop
 * has a deadline naming what it waited for.
 */
final class RandomCompletion {
    private RandomCompletion() {
    }

    private static final long DEADLINE_NS = 60_000_000_000L;

    static void complete(Request[] requests, SplittableRandom own, String where) throws MPIException {
        int n = requests.length;
        int how = own.nextInt(8);
        RandomCoverage.count("completion: " + new String[] {"waitFor each", "test loop each", "waitAll", "waitAny",
                "testSome loop", "waitSome", "testAny loop", "testAll loop"}[how]);
        long until = System.nanoTime() + DEADLINE_NS;
        switch (how) {
            case 5 -> { // waitSome until every index was reported once; then it reports null (all null)
                boolean[] done = new boolean[n];
                int k = 0;
                while (k < n) {
                    int[] some = Request.waitSome(requests);
                    if (some == null || some.length == 0) {
                        throw new AssertionError(where + ": waitSome returned " + Arrays.toString(some) + " with "
                                + (n - k) + " of " + n + " requests active");
                    }
                    k += mark(some, done, where, "waitSome");
                }
            }
            case 6 -> { // a testAny loop, index by index
                boolean[] done = new boolean[n];
                int k = 0;
                while (k < n) {
                    int i = Request.testAny(requests);
                    if (i != MPI.UNDEFINED) {
                        k += mark(new int[] {i}, done, where, "testAny");
                    } else {
                        deadline(until, where, "testAny, " + k + " of " + n + " done");
                    }
                }
            }
            case 7 -> { // a testAll loop
                while (!Request.testAll(requests)) {
                    deadline(until, where, "testAll");
                }
            }
            case 0, 1 -> {
                int[] order = RandomExchanges.permutation(own, n);
                for (int i : order) {
                    if (how == 0) {
                        requests[i].waitFor();
                    } else {
                        while (!requests[i].test()) {
                            deadline(until, where, "test of request " + i);
                        }
                    }
                }
            }
            case 2 -> Request.waitAll(requests);
            case 3 -> {
                boolean[] done = new boolean[n];
                for (int k = 0; k < n; k++) {
                    int i = Request.waitAny(requests);
                    if (i < 0 || i >= n || done[i]) {
                        throw new AssertionError(where + ": waitAny returned " + i + " (done " + java.util.Arrays.toString(done) + ")");
                    }
                    done[i] = true;
                }
            }
            default -> {
                boolean[] done = new boolean[n];
                int k = 0;
                while (k < n) {
                    int[] some = Request.testSome(requests);
                    if (some == null) {
                        throw new AssertionError(where + ": testSome returned null with " + (n - k) + " of " + n
                                + " requests active");
                    }
                    k += mark(some, done, where, "testSome");
                    deadline(until, where, "testSome, " + k + " of " + n + " done");
                }
            }
        }
        allNull(requests, where, "completion " + how);
    }

    /** Marks the indices an array completion reported: each in range and reported once; how many. */
    private static int mark(int[] some, boolean[] done, String where, String call) {
        for (int i : some) {
            if (i < 0 || i >= done.length || done[i]) {
                throw new AssertionError(where + ": " + call + " returned " + Arrays.toString(some) + " (done "
                        + Arrays.toString(done) + ")");
            }
            done[i] = true;
        }
        return some.length;
    }

    /**
     * After completion every handle is null (a persistent request inactive, which the array calls skip as they do a
     * null one), so the calls that report "nothing active" say so: waitAny and testAny {@code UNDEFINED}, waitSome and
     * testSome null, testAll true.
     */
    private static void allNull(Request[] requests, String where, String how) throws MPIException {
        for (int i = 0; i < requests.length; i++) {
            if (!requests[i].isNull() && !(requests[i] instanceof Prequest)) {
                throw new AssertionError(where + ": request " + i + " is not null after " + how);
            }
        }
        if (requests.length > 0 && (Request.waitAny(requests) != MPI.UNDEFINED
                || Request.testAny(requests) != MPI.UNDEFINED || Request.waitSome(requests) != null
                || Request.testSome(requests) != null || !Request.testAll(requests))) {
            throw new AssertionError(where + ": after " + how + " an array call over " + requests.length
                    + " completed requests did not report them all null or inactive");
        }
    }

    /**
     * Completes {@code requests} (nulls and inactive persistent requests among them) as {@link #complete}, by the calls
     * that report statuses: {@code waitStatus} or a {@code testStatus} loop one by one, {@code waitAllStatus},
     * {@code waitAnyStatus} or {@code testSomeStatus} (whose statuses name their request by {@code getIndex}), or a
     * {@code testAllStatus} loop; returns each request's status.
     */
    static Status[] statuses(Request[] requests, SplittableRandom own, String where) throws MPIException {
        int n = requests.length;
        Status[] out = new Status[n];
        int how = own.nextInt(8);
        RandomCoverage.count("completion with statuses: " + new String[] {"waitStatus each", "testStatus loop each",
                "waitAllStatus", "testAllStatus loop", "waitAnyStatus", "testSomeStatus loop", "waitSomeStatus",
                "testAnyStatus loop"}[how]);
        long until = System.nanoTime() + DEADLINE_NS;
        switch (how) {
            case 6 -> { // waitSomeStatus until it reports null: nothing active left (null or inactive persistent)
                Status[] some;
                while ((some = Request.waitSomeStatus(requests)) != null) {
                    if (some.length == 0) {
                        throw new AssertionError(where + ": waitSomeStatus returned no status");
                    }
                    record(some, out, where, "waitSomeStatus");
                }
            }
            case 7 -> { // a testAnyStatus loop until its index is UNDEFINED: nothing active left
                while (true) {
                    Status s = Request.testAnyStatus(requests);
                    if (s == null) {
                        deadline(until, where, "testAnyStatus");
                        continue;
                    }
                    if (s.getIndex() == MPI.UNDEFINED) {
                        break;
                    }
                    record(new Status[] {s}, out, where, "testAnyStatus");
                }
            }
            case 0, 1 -> {
                for (int i : RandomExchanges.permutation(own, n)) {
                    if (how == 0) {
                        out[i] = requests[i].waitStatus();
                    } else {
                        while ((out[i] = requests[i].testStatus()) == null) {
                            deadline(until, where, "testStatus of request " + i);
                        }
                    }
                }
            }
            case 2 -> {
                Status[] all = Request.waitAllStatus(requests);
                System.arraycopy(all, 0, out, 0, n);
            }
            case 3 -> {
                Status[] all;
                while ((all = Request.testAllStatus(requests)) == null) {
                    deadline(until, where, "testAllStatus");
                }
                System.arraycopy(all, 0, out, 0, n);
            }
            case 4 -> {
                for (int k = 0; k < n; k++) {
                    Status s = Request.waitAnyStatus(requests);
                    int i = s.getIndex();
                    if (i == MPI.UNDEFINED) {
                        break; // the rest are null or inactive
                    }
                    if (i < 0 || i >= n || out[i] != null) {
                        throw new AssertionError(where + ": waitAnyStatus gave index " + i);
                    }
                    out[i] = s;
                }
            }
            default -> {
                int k = 0;
                while (k < n) {
                    Status[] some = Request.testSomeStatus(requests);
                    if (some == null) {
                        break; // MPI.UNDEFINED: nothing active left
                    }
                    k += record(some, out, where, "testSomeStatus");
                    if (k < n) {
                        deadline(until, where, "testSomeStatus, " + k + " of " + n + " done");
                    }
                }
            }
        }
        return out;
    }

    /** Files statuses by their index: each in range and reported once; how many. */
    private static int record(Status[] some, Status[] out, String where, String call) {
        for (Status s : some) {
            int i = s.getIndex();
            if (i < 0 || i >= out.length || out[i] != null) {
                throw new AssertionError(where + ": " + call + " gave index " + i);
            }
            out[i] = s;
        }
        return some.length;
    }

    private static void deadline(long until, String where, String what) {
        if (System.nanoTime() > until) {
            throw new AssertionError(where + ": no completion within 60 s: " + what);
        }
    }
}
