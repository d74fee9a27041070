package mpi;

import java.util.Objects;

/**
 * The handle of a non-blocking operation (MPI_Request): a non-blocking collective ({@code Comm.iAllReduce} and the
 * like), or {@link MPI#REQUEST_NULL}. {@link #waitFor()} and {@link #test()} (and the array forms) make progress on it
 * and, once it has finished, deliver what it received into the program's buffer and set the handle to null
 * ({@link #isNull()} true); {@link #getStatus()} looks without doing so. railcoll runs a collective only while this
 * rank waits or tests one of its communicator's requests or makes another call on it (no thread runs it behind the
 * program's back), so a program that overlaps work with a collective should test it now and then, or wait for it.
 *
 * <p>Every wait ends: a collective that does not finish by railcoll's deadline ({@code RAILCOLL_TIMEOUT_MS} from its
 * start) fails with an {@code MPI.ERR_OTHER} error naming the ranks it waited for; errors go to the communicator's
 * error handler and, after {@code ERRORS_RETURN}, are thrown here. A request that failed is null afterwards.
 *
 * <p>Building one (point-to-point, for example): {@code Request.of(comm, call, io.railcoll.Request)}, {@code
 * Request.of(comm, call, CompletableFuture<Status>)}, or, where received data must be unpacked when it finishes or the
 * operation has staging of its own, {@link #of(Operation)} over an {@link Operation}, which wraps a {@link Pending}.
 * Threads: one at a time per request.
 */
public class Request implements Freeable {
    /** The operation until the handle is set to null (after a wait or test that saw it finish, or {@link #free}). */
    private volatile Operation operation;

    Request(Operation operation) {
        this.operation = operation;
    }

    /** A request for {@code operation}, started already: how a {@code Comm} method hands out a non-blocking operation. */
    static Request of(Operation operation) {
        return new Request(Objects.requireNonNull(operation, "operation"));
    }

    /**
     * A request for railcoll-core's {@code request}, started by call {@code call} on {@code comm}, with nothing left to
     * do when it finishes: the buffers it was given are the program's own.
     */
    static Request of(Comm comm, String call, io.railcoll.Request request) {
        return of(new Operation(comm, call, Pending.of(request), Operation.Finish.NOTHING, null));
    }

    /**
     * A request that finishes with {@code done} (completed by another thread, such as a transport's; exceptionally, with
     * a {@link io.railcoll.RailcollException}, at its deadline), its status the future's value.
     */
    static Request of(Comm comm, String call, java.util.concurrent.CompletableFuture<Status> done) {
        return of(new Operation(comm, call, Pending.of(done), Operation.Finish.NOTHING, null));
    }

    /** The operation a wait or test drives: null for a null (or an inactive persistent) request. */
    Operation active() {
        return operation;
    }

    /** After a wait or test saw it finish (or fail): the handle becomes null; a persistent request becomes inactive. */
    void completed() {
        operation = null;
    }

    /**
     * Frees the request: nothing if it is null. A request whose operation has not finished cannot be freed here
     * (nothing would make progress on it or deliver its data): an {@code MPI.ERR_REQUEST} error; wait for it first.
     */
    public void free() throws MPIException {
        Operation o = active();
        if (o == null) {
            return;
        }
        MPI.check();
        if (!o.test()) {
            throw o.error(MPI.ERR_REQUEST, "invalid request: freeing a request whose operation is still in flight;"
                    + " wait for it (waitFor) first");
        }
        completed();
    }

    /**
     * MPI_Cancel. Point-to-point: a receive no message has matched yet is cancelled (its wait then reports a status
     * with {@code isCancelled()} true, nothing received); a matched receive and a send (railcoll cancels none) complete
     * normally, which MPI allows, and the cancel is no error. Non-blocking collectives cannot be cancelled
     * ({@code MPI.ERR_REQUEST}, as Open MPI's libnbc answers; MPI makes it erroneous), nor can a null request or an
     * inactive persistent one (decision 0224).
     */
    public final void cancel() throws MPIException {
        MPI.check();
        Operation o = active();
        if (o == null) {
            throw MPI.COMM_WORLD.raise("cancel", MPIException.of(MPI.ERR_REQUEST, isNull()
                    ? "invalid request: cancel of a null request"
                    : "invalid request: cancel of an inactive persistent request (not started since its last"
                    + " completion): there is no round to cancel"));
        }
        o.cancel();
    }

    public final boolean isNull() {
        return handleIsNull();
    }

    /** A plain request is null once its operation was reported finished; a persistent one once freed. */
    boolean handleIsNull() {
        return operation == null;
    }

    /** Waits until the operation has finished; the handle is then null. Returns at once for a null request. */
    public final void waitFor() throws MPIException {
        await(false);
    }

    /** As {@link #waitFor()}, with the operation's status (an empty one for a null request). */
    public final Status waitStatus() throws MPIException {
        return await(true);
    }

    /** Waits; the status if {@code report} (a {@code waitFor} makes none, decision 0159), else null. */
    private Status await(boolean report) throws MPIException {
        MPI.check();
        Operation o = active();
        if (o == null) {
            return report ? Status.empty() : null;
        }
        try {
            o.await();
        } catch (MPIException | RuntimeException e) {
            completeIfOver(o);
            throw e;
        }
        completed();
        Status s = report ? o.reportedStatus(0) : null;
        o.recycle(); // the handle is null: no one reaches the operation through this request any more
        return s;
    }

    /** One round of progress: true once it has finished (the handle is then null), or for a null request. */
    public final boolean test() throws MPIException {
        MPI.check();
        Operation o = active();
        if (o == null) {
            return true;
        }
        if (!finished(o)) {
            return false;
        }
        completed();
        o.recycle();
        return true;
    }

    /** As {@link #test()}: the status once finished, else null. */
    public final Status testStatus() throws MPIException {
        MPI.check();
        Operation o = active();
        if (o == null) {
            return Status.empty();
        }
        if (!finished(o)) {
            return null;
        }
        completed();
        Status s = o.reportedStatus(0);
        o.recycle();
        return s;
    }

    /** The status if it has finished, else null, leaving the handle as it is (MPI_Request_get_status). */
    public final Status getStatus() throws MPIException {
        MPI.check();
        Operation o = active();
        if (o == null) {
            return Status.empty();
        }
        return finished(o) ? o.status() : null;
    }

    /** One test of {@code o}; a failure completes this request before it is thrown. */
    private boolean finished(Operation o) throws MPIException {
        try {
            return o.test();
        } catch (MPIException | RuntimeException e) {
            completeIfOver(o);
            throw e;
        }
    }

    /**
     * After a test or wait of {@code o} threw: the handle becomes null if the operation failed, not if the error was
     * that another thread is inside it (decision 0087), whose own wait completes the request.
     */
    void completeIfOver(Operation o) {
        if (o.over()) {
            completed();
        }
    }

    // ---- arrays of requests (MPI.REQUEST_NULL for an empty slot; a null element is a NullPointerException) ----

    /** Waits for one to finish and returns its index (the lowest of those finished), or {@code MPI.UNDEFINED} if all are null. */
    public static int waitAny(Request[] requests) throws MPIException {
        return Completions.awaitAny(requests);
    }

    /** As {@link #waitAny}, its status with the index; an empty status with index {@code MPI.UNDEFINED} if all are null. */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        return Completions.awaitAnyStatus(requests);
    }

    /** The index of one that has finished, or {@code MPI.UNDEFINED} if none has (or all are null). */
    public static int testAny(Request[] requests) throws MPIException {
        return Completions.testAny(requests);
    }

    /** The status (with its index) of one that has finished, null if none has; index {@code MPI.UNDEFINED} if all are null. */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        return Completions.testAnyStatus(requests);
    }

    /** Waits until all have finished; every handle is then null (a persistent request inactive). */
    public static void waitAll(Request[] requests) throws MPIException {
        Completions.awaitAll(requests);
    }

    /** Every request's status, in order (no index set; an empty one for a null request). */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        return Completions.awaitAllStatus(requests);
    }

    /** True, and every handle null, if all have finished; false, and no handle changed, otherwise. */
    public static boolean testAll(Request[] requests) throws MPIException {
        return Completions.testAll(requests);
    }

    /** Every request's status if all have finished (every handle then null), else null (no handle changed). */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        return Completions.testAllStatus(requests);
    }

    /** The indices of those that have finished, waiting for at least one; null if all are null. */
    public static int[] waitSome(Request[] requests) throws MPIException {
        return Completions.awaitSome(requests);
    }

    /** As {@link #waitSome}, their statuses (each with its index); null if all are null. */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        return Completions.awaitSomeStatus(requests);
    }

    /** The indices of those that have finished, possibly none; null if all are null. */
    public static int[] testSome(Request[] requests) throws MPIException {
        return Completions.testSome(requests);
    }

    /** As {@link #testSome}, their statuses (each with its index), possibly none; null if all are null. */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        return Completions.testSomeStatus(requests);
    }
}
