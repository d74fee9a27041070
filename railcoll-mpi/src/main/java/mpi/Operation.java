package mpi;

/**
 * One non-blocking operation on a communicator, what a {@link Request} completes: a started backend operation
 * ({@link Pending}), the work left for when it finishes (unpacking received elements from staging into the program's
 * buffer, folding a user op's contributions), and the staging memory of its own that holds its packed data until then
 * (a communicator's staging is reset by its next call, so a request cannot share it). The finishing work runs once,
 * in the wait or test that sees the operation finish; the staging is given back to the communicator then
 * ({@link Comm#giveBack}), or closed when the operation fails.
 *
 * <p>Failures go to the communicator's error handler, as the call's would: a railcoll failure becomes the
 * {@link MPIException} of its class (decision 0077), named after the call ({@code iAllReduce on rank 1 of
 * MPI_COMM_WORLD failed: ...}).
 *
 * <p>Threads: one at a time, as MPI has it for a request (two threads completing one request is erroneous, MPI 3.1
 * section 12.4.2), at every thread level. Ownership is a state word taken by compare-and-set, not a monitor (issue
 * 21: hot paths take no locks; decision 0087): a test, wait or status takes it for its duration and a thread that
 * finds it taken gets an {@code MPI.ERR_REQUEST} error naming the call instead of waiting behind the other. The
 * compare-and-set and its release order the plain fields from one holder to the next, as the monitor did, so a request
 * started by one thread may be completed by another that the program ordered after it.
 */
final class Operation {
    /** No thread is inside: a test, wait or status may take it. */
    private static final int FREE = 0;
    /** A thread is inside a test, wait, status or its recycling. */
    private static final int HELD = 1;
    /** A reusable operation held by its communicator for the next iSend or iRecv (or made and not yet started). */
    private static final int SPARE = 2;
    private static final java.lang.invoke.VarHandle STATE;

    static {
        try {
            STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Operation.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Work left for when the backend operation finishes, such as delivering received elements. */
    @FunctionalInterface
    interface Finish {
        void run() throws MPIException;

        Finish NOTHING = () -> {
        };
    }

    private final Comm comm;
    private String call;
    private Pending pending;
    private Finish finish;
    private Staging staging;
    /**
     * Reused by a later iSend/iRecv of its communicator once its request's wait has reported it (decision 0159),
     * with this adapter for railcoll's request; null for an operation made for one use.
     */
    private final MessagePending message;
    private boolean done;
    /** Finished well: its status may be asked for. */
    private boolean succeeded;
    private Status status;
    /** {@link #FREE}, {@link #HELD} or {@link #SPARE}; through {@link #STATE}. */
    @SuppressWarnings("unused")
    private volatile int state;

    /**
     * @param staging given back when the operation has finished, closed when it failed; null if it has none
     */
    Operation(Comm comm, String call, Pending pending, Finish finish, Staging staging) {
        this.comm = comm;
        this.call = call;
        this.pending = pending;
        this.finish = finish;
        this.staging = staging;
        this.message = null;
    }

    /** An operation a communicator keeps for its iSend and iRecv calls, started by {@link #restart}. */
    Operation(Comm comm) {
        this.comm = comm;
        this.message = new MessagePending(null);
        this.state = SPARE;
    }

    /** The adapter a reusable operation's message goes through; null for one made for one use. */
    MessagePending message() {
        return message;
    }

    /** Whether a wait that reported this operation finished may hand it back to its communicator. */
    boolean reusable() {
        return message != null;
    }

    /**
     * A reusable operation, spare, started for {@code call}: as the constructor of a one-use one. Only the thread that
     * took it from its communicator's spares (by compare-and-set) reaches it; the request it is handed out in publishes
     * it to the others.
     */
    Operation restart(String call, Pending pending, Finish finish, Staging staging) {
        this.call = call;
        this.pending = pending;
        this.finish = finish;
        this.staging = staging;
        this.done = false;
        this.succeeded = false;
        this.status = null;
        STATE.setRelease(this, FREE);
        return this;
    }

    /**
     * Starts another round of a persistent request's own operation (decision 0185): {@code round}'s start, which
     * becomes what this operation drives, its results cleared. The request is inactive, so its last round was
     * reported (or failed) and no thread should be inside; one that is (two threads on one request, which MPI
     * forbids) is the request-in-use error, and nothing is started. A start that throws leaves the last round's
     * state as it was.
     */
    Operation rearm(Backend.Persistent round) throws MPIException {
        take("start");
        try {
            Pending next = round.start();
            pending = next;
            done = false;
            succeeded = false;
            status = null;
        } finally {
            STATE.setRelease(this, FREE);
        }
        return this;
    }

    /**
     * Waits until a detached operation (its persistent request freed while its round was in flight) has finished,
     * for its communicator's free: MPI lets pending operations complete normally (MPI 3.1 §6.4.3), and a round still
     * in flight when the context closes would have its last messages (a synchronous send's acknowledgement) arrive for
     * a closed context. Waits no longer than the backend's own deadline; its failure is returned, not thrown (the
     * free goes on). Null when finished well, or when another thread is inside it (which MPI forbids).
     */
    RuntimeException finishDetached() {
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            return null;
        }
        try {
            if (!done) {
                pending.await();
                done = true;
            }
            return null;
        } catch (RuntimeException e) {
            done = true;
            return e;
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /**
     * One test of the round of a persistent request freed while it was in flight (decision 0185), with no error
     * reported (MPI_Request_free leaves no one to report to) and no finishing work (only rounds with none are left
     * to finish alone): true once it is over, well or not. False, doing nothing, when another thread is inside.
     */
    boolean overQuietly() {
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            return false;
        }
        try {
            if (!done) {
                try {
                    done = pending.test();
                } catch (RuntimeException e) {
                    done = true;
                }
            }
            return done;
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /**
     * After the wait that reported it finished (its request's handle null, its status read if asked for): nothing of
     * the call is held any more, and a reusable operation goes back to its communicator for a later iSend or iRecv.
     * One that another thread is inside (which MPI forbids) is not reused: it is simply dropped.
     */
    void recycle() {
        if (message == null || !STATE.compareAndSet(this, FREE, HELD)) {
            return;
        }
        if (!succeeded) {
            STATE.setRelease(this, FREE);
            return;
        }
        call = null;
        pending = null;
        finish = null;
        staging = null;
        status = null;
        message.over(null);
        STATE.setRelease(this, SPARE);
        comm.reuse(this);
    }

    /** One round of progress; true once finished (its finishing work done). */
    boolean test() throws MPIException {
        take("test");
        try {
            if (done) {
                return true;
            }
            boolean finished;
            try {
                finished = pending.test();
            } catch (RuntimeException e) {
                throw failed(e);
            }
            if (finished) {
                complete();
            }
            return finished;
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /** Waits until finished. */
    void await() throws MPIException {
        take("wait");
        try {
            if (done) {
                return;
            }
            try {
                pending.await();
            } catch (RuntimeException e) {
                throw failed(e);
            }
            complete();
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /**
     * Whether it has finished or failed, as this thread last saw it: after a test or wait of this thread threw, whether
     * that was the operation's own failure (its request is then complete) rather than another thread being inside.
     */
    boolean over() {
        return done;
    }

    /** Takes the operation for this thread, or throws the request-in-use error ({@code what}: test, wait, status). */
    private void take(String what) throws MPIException {
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            throw inUse(what);
        }
    }

    private MPIException inUse(String what) {
        String c = call;
        if ((int) STATE.getAcquire(this) == SPARE || c == null) {
            return comm.raise("request", MPIException.of(MPI.ERR_REQUEST, "invalid request: a " + what + " of a"
                    + " request whose operation was already completed and handed back (a request used by two"
                    + " threads at once?)"));
        }
        return error(MPI.ERR_REQUEST, "invalid request: a " + what + " while another thread is inside a wait, test"
                + " or status of the same request; a request is used by one thread at a time (MPI)");
    }

    /**
     * MPI_Cancel: an {@code MPI.ERR_REQUEST} error for a collective (MPI makes its cancel erroneous, decision 0224).
     * Point-to-point is asked to cancel; where it is too late, or a send (which railcoll does not cancel), it
     * completes normally and its status says it was not cancelled: no error (MPI 3.1 §3.8.4).
     */
    void cancel() throws MPIException {
        if (!pending.cancellable()) {
            throw error(MPI.ERR_REQUEST, "invalid request: " + call + " cannot be cancelled (MPI cancels no collective)");
        }
        pending.cancel();
    }

    /**
     * A copy of the status it finished with, for {@code getStatus}, which leaves the request as it is; null before (or
     * after a failure). The original is made when first asked for, so a wait that reports none ({@code waitFor})
     * makes none (decision 0159), and kept here, never handed out: each snapshot the program holds is its own
     * (decision 0168).
     */
    Status status() throws MPIException {
        take("status");
        try {
            if (status == null && succeeded) {
                status = pending.status();
            }
            return status == null ? null : status.withIndex(0);
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /**
     * The status a wait or test hands to the program as it reports this operation finished (decision 0168), with
     * {@code index} set (0 where the form sets none); null after a failure. One object: the backend's status, made now
     * and handed out (the request is completed next, so nothing asks for it again); a copy of the one kept where
     * {@link #status()} made it already ({@code getStatus}), so each snapshot the program holds stays its own.
     */
    Status reportedStatus(int index) throws MPIException {
        take("status");
        try {
            if (!succeeded) {
                return null;
            }
            return status != null ? status.withIndex(index) : pending.status().setIndex(index);
        } finally {
            STATE.setRelease(this, FREE);
        }
    }

    /** The communicator's handler's answer to an error of this request (a misuse of it, for example). */
    MPIException error(int errorClass, String detail) {
        return comm.raise(call, MPIException.of(errorClass, call + " on " + comm.describe() + ": " + detail));
    }

    String call() {
        return call;
    }

    private void complete() throws MPIException {
        try {
            finish.run();
        } catch (MPIException e) {
            release(false);
            throw comm.raise(call, e);
        } catch (RuntimeException e) {
            throw failed(e);
        }
        succeeded = true;
        release(true);
    }

    private MPIException failed(RuntimeException e) {
        release(false);
        MPIException m = comm.mpiError(call, e);
        if (m == null) {
            throw e;
        }
        return comm.raise(call, m);
    }

    /** {@code finished}: the operation ended well, so nothing touches its staging any more and it may be reused. */
    private void release(boolean finished) {
        done = true;
        if (staging != null) {
            if (finished) {
                comm.giveBack(staging);
            } else {
                staging.close();
            }
        }
    }
}
