package mpi;

/**
 * The {@code MPI.ERR_UNSUPPORTED_OPERATION} errors of the bindings' methods railcoll-mpi does not provide (decision
 * 0117; docs/mpi.md lists them): each names the method and says why. An error of a communicator's method goes to its
 * error handler; one of a method tied to none (a static one, {@code Win}, {@code File}) to {@code COMM_WORLD}'s, as
 * Open MPI 5.0 reports such errors.
 */
final class Unsupported {
    static final String INTERCOMM = "is not supported: railcoll-mpi has no inter-communicators";
    static final String DYNAMIC = "is not supported: railcoll-mpi has no dynamic process management (ports, names,"
            + " spawn, connect/accept); a job's ranks are those its launcher started";
    static final String ONE_SIDED = "is not supported: railcoll-mpi has no one-sided communication (MPI_Win)";
    static final String IO = "is not supported: railcoll-mpi has no MPI-IO (MPI_File); use java.nio.file";

    private Unsupported() {
    }

    /** The error of {@code method} on {@code comm}, through its handler: returned to throw if the handler returns. */
    static MPIException on(Comm comm, String method, String why) {
        return comm.raise(method, error(method, why));
    }

    /** The error of {@code method}, tied to no communicator: through {@code COMM_WORLD}'s handler, after {@code MPI.check()}. */
    static MPIException of(String method, String why) throws MPIException {
        MPI.check();
        return MPI.COMM_WORLD.raise(method, error(method, why));
    }

    private static MPIException error(String method, String why) {
        return MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, "unsupported operation: " + method + " " + why
                + " (docs/mpi.md)");
    }
}
