package mpi;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * An operation a backend has started and not necessarily finished: railcoll-core's {@link io.railcoll.Request} (a
 * non-blocking collective), a {@link CompletableFuture} (what point-to-point may complete), or nothing left to do
 * ({@link #DONE}: {@code COMM_SELF}'s local copies). Failures are railcoll's unchecked exceptions; {@link Operation}
 * turns them into MPI errors. Under the thread contract of whatever it wraps.
 */
interface Pending {
    /** One round of progress without waiting; true when finished. */
    boolean test();

    /** Waits until finished (every wrapped operation has a deadline of its own, which fails it). */
    void await();

    /**
     * What {@code wait}/{@code test} report once finished: an empty status unless the operation says more. This
     * operation's alone (shared with no other operation; it may be the same object at each call), which its
     * {@link Operation} hands to the program once, as the wait or test that completes it reports it.
     */
    default Status status() {
        return Status.empty();
    }

    /**
     * Tries to cancel it (MPI_Cancel, asked only where {@link #cancellable()}): true if it is cancelled (it then
     * finishes, with a status saying so), false where it is too late (a receive a message matched already) or the
     * operation is never cancelled (a send): it then completes normally, which MPI allows (MPI 3.1 §3.8.4).
     */
    default boolean cancel() {
        return false;
    }

    /**
     * Whether MPI_Cancel may be asked of it at all: point-to-point, where a cancel that does not succeed is no error;
     * never a collective, of which MPI makes cancel erroneous (MPI 3.1 §5.12) and Open MPI's libnbc answers
     * {@code MPI_ERR_REQUEST} (decision 0224).
     */
    default boolean cancellable() {
        return false;
    }

    /**
     * Point-to-point finished as it started (a send to {@code MPI.PROC_NULL}, a buffered send copied away): a cancel
     * comes too late, and is no error. {@link #DONE} is a collective's.
     */
    Pending SENT = new Pending() {
        @Override
        public boolean test() {
            return true;
        }

        @Override
        public void await() {
        }

        @Override
        public boolean cancellable() {
            return true;
        }
    };

    /**
     * Already finished: a collective whose work was done when it started (a one-rank communicator), or the placeholder
     * of a persistent request before its first round. Not cancellable: point-to-point has {@link #SENT}.
     */
    Pending DONE = new Pending() {
        @Override
        public boolean test() {
            return true;
        }

        @Override
        public void await() {
        }
    };

    /** Both {@code a} and {@code b}: each round of progress tests both; finished when both are. */
    static Pending allOf(Pending a, Pending b) {
        return new Pending() {
            @Override
            public boolean test() {
                boolean first = a.test();
                return b.test() && first;
            }

            @Override
            public void await() {
                a.await();
                b.await();
            }
        };
    }

    /** A non-blocking collective of railcoll-core: progress is made by its {@code test} and {@code await}. */
    static Pending of(io.railcoll.Request request) {
        return new Pending() {
            @Override
            public boolean test() {
                return request.test();
            }

            @Override
            public void await() {
                request.await();
            }
        };
    }

    /**
     * An operation another party completes (a transport thread, for point-to-point): finished when {@code future} is;
     * its status is the future's value (an empty one for null). Whoever completes it owns its deadline: it must complete
     * it, exceptionally with a {@link io.railcoll.RailcollException} naming what was awaited, once that passes.
     */
    static Pending of(CompletableFuture<Status> future) {
        return new Pending() {
            @Override
            public boolean test() {
                if (!future.isDone()) {
                    return false;
                }
                await();
                return true;
            }

            @Override
            public void await() {
                try {
                    future.get();
                } catch (ExecutionException | CompletionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for a request", e);
                }
            }

            @Override
            public Status status() {
                Status s = future.getNow(null);
                return s == null ? Status.empty() : s;
            }
        };
    }
}
