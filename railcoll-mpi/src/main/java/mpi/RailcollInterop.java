package mpi;

import io.railcoll.Communicator;

import java.util.Objects;

/**
 * The railcoll communicator an {@code mpi} communicator runs on, for programs that call railcoll's own API beside the
 * bindings' (memory segments, requests with a {@code CompletableFuture} view, deterministic reductions) and for
 * benchmarks that time both in one run. Not part of Open MPI's bindings.
 *
 * <p>Collectives on the returned communicator and on {@code comm} share one order: as with any two MPI collectives,
 * every rank must start them in the same order. Closing it is {@code MPI.Finalize}'s (or {@code comm.free()}'s) job;
 * a program must not close it itself.
 */
public final class RailcollInterop {
    private static final String CALL = "RailcollInterop.communicator";

    private RailcollInterop() {
    }

    /**
     * railcoll's communicator under {@code comm} ({@code COMM_WORLD} or one derived from it).
     *
     * @throws MPIException {@code ERR_COMM} for a freed communicator; {@code ERR_UNSUPPORTED_OPERATION} for one that
     *                      runs without railcoll ({@code COMM_SELF}, or a job of one rank started without a launcher)
     */
    public static Communicator communicator(Comm comm) throws MPIException {
        Objects.requireNonNull(comm, "comm");
        Backend backend = comm.liveBackend(CALL);
        if (backend instanceof RailcollBackend railcoll) {
            return railcoll.communicator();
        }
        throw comm.raise(CALL, MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, CALL + ": " + comm.describe()
                + " runs without railcoll (COMM_SELF, or a job of one rank started without a launcher), so it has no"
                + " railcoll communicator"));
    }
}
