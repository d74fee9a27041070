package mpi;

/**
 * A communicator with a Cartesian topology. railcoll-mpi makes none ({@code Intracomm.createCart} is an
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} error, decision 0117), so its instance methods are unreachable and refuse
 * likewise; {@link #createDims}, pure arithmetic that needs no topology, works.
 */
public final class CartComm extends Intracomm {
    CartComm() {
        super("MPI_COMM_NULL", false);
    }

    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    @Override
    public CartComm dup() throws MPIException {
        throw unsupported("dup");
    }

    @Override
    public CartComm iDup() throws MPIException {
        throw unsupported("iDup");
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        throw unsupported("dupWithInfo");
    }

    /** MPI_Cart_get: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public CartParms getTopo() throws MPIException {
        throw unsupported("getTopo");
    }

    /** MPI_Cart_rank: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int getRank(int[] coords) throws MPIException {
        throw unsupported("getRank");
    }

    /** MPI_Cart_coords: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int[] getCoords(int rank) throws MPIException {
        throw unsupported("getCoords");
    }

    /** MPI_Cart_shift: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        throw unsupported("shift");
    }

    /** MPI_Cart_sub: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        throw unsupported("sub");
    }

    /** MPI_Cart_map: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        throw unsupported("map");
    }

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} so that the product of all entries is {@code nnodes},
     * the filled ones as close to each other as this greedy split of {@code nnodes}' prime factors gets them, in
     * non-increasing order; non-zero entries are kept. A negative entry, a negative {@code nnodes}, or an
     * {@code nnodes} the fixed entries do not divide is an {@code MPI.ERR_DIMS} error (to {@code COMM_WORLD}'s
     * handler).
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        java.util.Objects.requireNonNull(dims, "dims");
        String problem = DimsCreate.fill(nnodes, dims);
        if (problem != null) {
            throw MPI.COMM_WORLD.raise("createDims", MPIException.of(MPI.ERR_DIMS, "invalid dimension argument: "
                    + "CartComm.createDims(" + nnodes + ", " + java.util.Arrays.toString(dims) + "): " + problem));
        }
    }

    private MPIException unsupported(String method) throws MPIException {
        MPI.check();
        return Unsupported.on(this, "CartComm." + method, Unsupported.TOPOLOGY);
    }
}
