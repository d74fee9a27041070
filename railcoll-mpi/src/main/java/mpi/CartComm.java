package mpi;

import java.util.Arrays;
import java.util.Optional;

/**
 * A communicator with a Cartesian topology (decision 0117), made by {@code Intracomm.createCart} or {@link #sub}: its
 * ranks laid out row-major on a grid of {@code dims} (the last dimension varies fastest), periodic where
 * {@code periods} says. The queries ({@link #getTopo}, {@link #getRank(int[])}, {@link #getCoords}, {@link #shift},
 * {@link #map}, {@link #createDims}) are local arithmetic; {@link #sub} is a split. Every collective of an
 * {@link Intracomm} runs on it, and the neighbourhood collectives, blocking and not ({@link NeighbourExchange}).
 */
public final class CartComm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    CartComm(String name, int[] dims, boolean[] periods) {
        super(name, false);
        this.dims = dims.clone();
        this.periods = periods.clone();
    }

    @Override
    int topology() {
        return MPI.CART;
    }

    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /** A new communicator of the same ranks and topology (MPI_Comm_dup); collective. */
    @Override
    public CartComm dup() throws MPIException {
        return withNeighbourComm(dupAs(n -> new CartComm(n, dims, periods)));
    }

    @Override
    public CartComm iDup() throws MPIException {
        return iDupAs(n -> new CartComm(n, dims, periods), true);
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return withHints(dup(), info, "dupWithInfo");
    }

    /** The grid's dimensions and periodicity and this process's coordinates (MPI_Cart_get). */
    public CartParms getTopo() throws MPIException {
        return new CartParms(dims, periods, coordsOf(getRank(), "getTopo"));
    }

    /**
     * The rank at {@code coords} (MPI_Cart_rank): a coordinate outside its dimension wraps where the dimension is
     * periodic and is an {@code MPI.ERR_ARG} error where it is not.
     */
    public int getRank(int[] coords) throws MPIException {
        liveBackend("getRank");
        if (coords == null || coords.length != dims.length) {
            throw raise("getRank", MPIException.of(MPI.ERR_ARG, "getRank: coords " + Arrays.toString(coords)
                    + " must have " + dims.length + " entries, one per dimension of " + describe()));
        }
        int rank = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (periods[d]) {
                c = Math.floorMod(c, dims[d]);
            } else if (c < 0 || c >= dims[d]) {
                throw raise("getRank", MPIException.of(MPI.ERR_ARG, "getRank: coordinate " + c + " of dimension " + d
                        + " is outside 0.." + (dims[d] - 1) + " and that dimension is not periodic"));
            }
            rank = rank * dims[d] + c;
        }
        return rank;
    }

    /** The coordinates of {@code rank} (MPI_Cart_coords); a rank outside the grid is an {@code MPI.ERR_RANK} error. */
    public int[] getCoords(int rank) throws MPIException {
        liveBackend("getCoords");
        return coordsOf(rank, "getCoords");
    }

    private int[] coordsOf(int rank, String call) throws MPIException {
        int size = getSize();
        if (rank < 0 || rank >= size) {
            throw raise(call, MPIException.of(MPI.ERR_RANK, "invalid rank: " + call + "(" + rank + ") on "
                    + describe() + " of " + size + " ranks"));
        }
        int[] coords = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            coords[d] = rank % dims[d];
            rank /= dims[d];
        }
        return coords;
    }

    /**
     * The ranks {@code disp} steps down and up dimension {@code direction} from this one (MPI_Cart_shift): receive
     * from the source, send to the destination. Off the edge of a non-periodic dimension is {@code MPI.PROC_NULL}.
     */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        liveBackend("shift");
        if (direction < 0 || direction >= dims.length) {
            throw raise("shift", MPIException.of(MPI.ERR_DIMS, "invalid dimension argument: shift direction "
                    + direction + " is outside 0.." + (dims.length - 1)));
        }
        int[] mine = coordsOf(getRank(), "shift");
        return new ShiftParms(neighbour(mine, direction, -disp), neighbour(mine, direction, disp));
    }

    private int neighbour(int[] from, int direction, int steps) throws MPIException {
        int[] at = from.clone();
        at[direction] += steps;
        if (!periods[direction] && (at[direction] < 0 || at[direction] >= dims[direction])) {
            return MPI.PROC_NULL;
        }
        return getRank(at);
    }

    /**
     * The sub-grid through this process that keeps the dimensions where {@code remainDims} is true (MPI_Cart_sub):
     * a split of this communicator by the dropped coordinates, ranked by the kept ones; collective. With no
     * dimension kept, each process gets a communicator of its own with no dimensions.
     */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        liveBackend("sub");
        if (remainDims == null || remainDims.length != dims.length) {
            throw raise("sub", MPIException.of(MPI.ERR_ARG, "sub: remainDims must have " + dims.length
                    + " entries, one per dimension of " + describe()));
        }
        int[] mine = coordsOf(getRank(), "sub");
        int colour = 0;
        int key = 0;
        int kept = 0;
        for (int d = 0; d < dims.length; d++) {
            if (remainDims[d]) {
                key = key * dims[d] + mine[d];
                kept++;
            } else {
                colour = colour * dims[d] + mine[d];
            }
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        for (int d = 0, k = 0; d < dims.length; d++) {
            if (remainDims[d]) {
                subDims[k] = dims[d];
                subPeriods[k++] = periods[d];
            }
        }
        int splitColour = colour;
        int splitKey = key;
        return withNeighbourComm(derive("sub", ".sub" + Arrays.toString(remainDims),
                c -> c.backend.split(splitColour, splitKey).map(b -> new Derived(b, worldRanksOf(b))),
                n -> new CartComm(n, subDims, subPeriods)));
    }

    /**
     * The rank this process would have on a grid of {@code dims} (MPI_Cart_map): its rank here, as railcoll-mpi does
     * not reorder, or {@code MPI.UNDEFINED} if the grid has fewer processes than that. Local.
     */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        liveBackend("map");
        long cells = Topologies.cells(this, "map", dims, periods);
        int rank = getRank();
        return rank < cells ? rank : MPI.UNDEFINED;
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
                    + "CartComm.createDims(" + nnodes + ", " + Arrays.toString(dims) + "): " + problem));
        }
    }

    // ---- neighbourhood collectives (NeighbourExchange) ----

    /**
     * MPI's Cartesian neighbourhood: {@code 2n} neighbours, for each dimension {@code d} the one below
     * ({@code shift(d, 1)}'s source, slot {@code 2d}) then the one above (its destination, slot {@code 2d + 1});
     * {@code MPI.PROC_NULL} off a non-periodic edge, whose receive block is left as it is. What a process sends to
     * its upper neighbour lands in that one's lower slot and the other way round: a message for slot {@code i} is
     * tagged {@code i}, so a periodic dimension of 1 or 2 processes (both neighbours the same process) gets MPI's
     * placement.
     */
    @Override
    NeighbourExchange.Neighbours neighbours(String call) throws MPIException {
        liveBackend(call);
        int[] ranks = new int[2 * dims.length];
        int[] recvTags = new int[ranks.length];
        int[] sendTags = new int[ranks.length];
        for (int d = 0; d < dims.length; d++) {
            ShiftParms s = shift(d, 1);
            ranks[2 * d] = s.getRankSource();
            ranks[2 * d + 1] = s.getRankDest();
        }
        for (int i = 0; i < ranks.length; i++) {
            recvTags[i] = i;
            sendTags[i] = i ^ 1;
        }
        return new NeighbourExchange.Neighbours(new Neighbourhood(ranks, recvTags, ranks.clone(), sendTags),
                neighbourBackend(call));
    }


    /** Made by {@code Intracomm.createCart}: the first {@code cells} ranks of {@code parent}, or a null one. */
    static CartComm create(Intracomm parent, int[] dims, boolean[] periods) throws MPIException {
        long cells = Topologies.cells(parent, "createCart", dims, periods);
        int[] grid = new int[(int) cells];
        Arrays.setAll(grid, i -> i);
        int[] members = Arrays.copyOf(parent.getGroup().worldRanks(), grid.length);
        return withNeighbourComm(parent.derive("createCart", ".cart" + Arrays.toString(dims),
                c -> c.backend.create(grid).map(b -> new Derived(b, members)), n -> new CartComm(n, dims, periods)));
    }
}
