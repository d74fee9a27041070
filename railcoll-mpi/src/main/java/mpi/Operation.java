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
 * MPI_COMM_WORLD failed: ...}). Used by one thread at a time (a wait holds it).
 */
final class Operation {
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
    }

    /** The adapter a reusable operation's message goes through; null for one made for one use. */
    MessagePending message() {
        return message;
    }

    /** Whether a wait that reported this operation finished may hand it back to its communicator. */
    boolean reusable() {
        return message != null;
    }

    /** A reusable operation, unused, started for {@code call}: as the constructor of a one-use one. */
    synchronized Operation restart(String call, Pending pending, Finish finish, Staging staging) {
        this.call = call;
        this.pending = pending;
        this.finish = finish;
        this.staging = staging;
        this.done = false;
        this.succeeded = false;
        this.status = null;
        return this;
    }

    /**
     * After the wait that reported it finished (its request's handle null, its status read if asked for): nothing of
     * the call is held any more, and a reusable operation goes back to its communicator for a later iSend or iRecv.
     */
    void recycle() {
        if (message == null) {
            return;
        }
        synchronized (this) {
            if (!succeeded) {
                return;
            }
            call = null;
            pending = null;
            finish = null;
            staging = null;
            status = null;
            message.over(null);
        }
        comm.reuse(this);
    }

    /** One round of progress; true once finished (its finishing work done). */
    synchronized boolean test() throws MPIException {
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
    }

    /** Waits until finished. */
    synchronized void await() throws MPIException {
        if (done) {
            return;
        }
        try {
            pending.await();
        } catch (RuntimeException e) {
            throw failed(e);
        }
        complete();
    }

    /** MPI_Cancel: an {@code MPI.ERR_REQUEST} error where the operation cannot be cancelled (every collective). */
    void cancel() throws MPIException {
        if (!pending.cancel()) {
            throw error(MPI.ERR_REQUEST, "invalid request: " + call + " cannot be cancelled (MPI cancels no collective)");
        }
    }

    /**
     * The status it finished with; null before (or after a failure). Made when first asked for, so a wait that
     * reports none ({@code waitFor}) makes none (decision 0159).
     */
    synchronized Status status() {
        if (status == null && succeeded) {
            status = pending.status();
        }
        return status;
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
