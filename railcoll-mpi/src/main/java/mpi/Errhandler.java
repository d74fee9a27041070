package mpi;

/**
 * What a communicator does with an MPI error: {@code MPI.ERRORS_ARE_FATAL} (the default of {@code COMM_WORLD} and
 * {@code COMM_SELF}) and {@code MPI.ERRORS_ABORT} end the job, naming the error, without a Java exception;
 * {@code MPI.ERRORS_RETURN} throws it as an {@link MPIException}. {@code Comm.getErrhandler()} returns a new object
 * each time, as the bindings do, so compare handlers by behaviour, not identity.
 */
public final class Errhandler {
    /** The behaviour; {@code ERRORS_ARE_FATAL} and {@code ERRORS_ABORT} both end the job here. */
    enum Kind { FATAL, ABORT, RETURN }

    final Kind kind;

    protected Errhandler(Kind kind) {
        this.kind = kind;
    }

    /**
     * Hands {@code error}, raised by {@code call} on {@code comm}, to this handler: returns it to be thrown
     * ({@code ERRORS_RETURN}) or ends the process with the error's class as exit status, after printing what failed.
     * Ending this process is what ends the job: the launcher (railcoll's, mpirun, srun) stops the other ranks, and
     * those waiting on this one in a collective fail at once as having lost a peer.
     */
    MPIException handle(Comm comm, String call, MPIException error) {
        if (kind == Kind.RETURN) {
            return error;
        }
        String who = MPI.running() ? "rank " + MPI.worldRank() : "a process";
        System.err.println("railcoll-mpi: " + who + ": " + error.getMessage() + " (in " + call + " on "
                + comm.describe() + "; the handler is MPI.ERRORS_" + (kind == Kind.FATAL ? "ARE_FATAL" : "ABORT")
                + ", set MPI.ERRORS_RETURN to get an MPIException instead)");
        System.err.flush();
        System.out.flush();
        Runtime.getRuntime().halt(Math.max(1, Math.min(255, error.getErrorClass())));
        return error; // not reached
    }
}
