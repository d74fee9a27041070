package mpi;

import java.nio.Buffer;

/**
 * A one-sided window (MPI_Win). railcoll-mpi has no one-sided communication (decision 0117): the constructors are
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} errors, so no window exists; the bindings' put/get/accumulate/synchronisation
 * methods are not declared (docs/mpi.md).
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    /** MPI_Win_create: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        throw Unsupported.of("Win(base, size, dispUnit, info, comm)", Unsupported.ONE_SIDED);
    }

    /** MPI_Win_create_dynamic: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public Win(Info info, Comm comm) throws MPIException {
        throw Unsupported.of("Win(info, comm)", Unsupported.ONE_SIDED);
    }

    /** Unreachable (no window can be made): {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    @Override
    public void free() throws MPIException {
        throw Unsupported.of("Win.free", Unsupported.ONE_SIDED);
    }
}
