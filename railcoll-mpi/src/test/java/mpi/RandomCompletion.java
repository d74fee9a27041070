package mpi;

import java.util.SplittableRandom;

/**
 * Completes requests of the random call test in an order each rank draws for itself, by one of the ways programs
 * complete them: {@code waitFor} or a {@code test} loop one by one, {@code waitAll}, {@code waitAny} or
 * {@code testSome} over the array. Every loop has a deadline naming what it waited for.
 */
final class RandomCompletion {
    private RandomCompletion() {
    }

    private static final long DEADLINE_NS = 60_000_000_000L;

    static void complete(Request[] requests, SplittableRandom own, String where) throws MPIException {
        int n = requests.length;
        int how = own.nextInt(5);
        long until = System.nanoTime() + DEADLINE_NS;
        switch (how) {
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
                    if (some != null) {
                        for (int i : some) {
                            if (i < 0 || i >= n || done[i]) {
                                throw new AssertionError(where + ": testSome returned " + java.util.Arrays.toString(some));
                            }
                            done[i] = true;
                            k++;
                        }
                    }
                    deadline(until, where, "testSome, " + k + " of " + n + " done");
                }
            }
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
        int how = own.nextInt(6);
        long until = System.nanoTime() + DEADLINE_NS;
        switch (how) {
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
                    for (Status s : some) {
                        int i = s.getIndex();
                        if (i < 0 || i >= n || out[i] != null) {
                            throw new AssertionError(where + ": testSomeStatus gave index " + i);
                        }
                        out[i] = s;
                        k++;
                    }
                    if (k < n) {
                        deadline(until, where, "testSomeStatus, " + k + " of " + n + " done");
                    }
                }
            }
        }
        return out;
    }

    private static void deadline(long until, String where, String what) {
        if (System.nanoTime() > until) {
            throw new AssertionError(where + ": no completion within 60 s: " + what);
        }
    }
}
