package mpi;

import java.util.Arrays;

/** Checks shared by the Cartesian constructors and queries: the grid a {@code dims}/{@code periods} pair describes. */
final class Topologies {
    private Topologies() {
    }

    /**
     * The number of cells of the grid {@code dims}, which must fit in {@code comm}: an {@code MPI.ERR_ARG} error for
     * arrays of different lengths, {@code MPI.ERR_DIMS} for a dimension below 1, and for more cells than ranks.
     */
    static long cells(Comm comm, String call, int[] dims, boolean[] periods) throws MPIException {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw comm.raise(call, MPIException.of(MPI.ERR_ARG, call + ": dims " + Arrays.toString(dims)
                    + " and periods " + Arrays.toString(periods) + " must be arrays of the same length"));
        }
        long cells = 1;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] < 1) {
                throw comm.raise(call, MPIException.of(MPI.ERR_DIMS, "invalid dimension argument: " + call
                        + ": dims[" + d + "] is " + dims[d] + "; every dimension needs at least 1 process"));
            }
            cells *= dims[d];
            if (cells > comm.getSize()) {
                throw comm.raise(call, MPIException.of(MPI.ERR_DIMS, "invalid dimension argument: " + call + ": the"
                        + " grid " + Arrays.toString(dims) + " has more cells than the " + comm.getSize()
                        + " ranks of " + comm.describe()));
            }
        }
        return cells;
    }
}
