package mpi;

import java.nio.Buffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * An intra-communicator: {@code MPI.COMM_WORLD}, {@code MPI.COMM_SELF} and those derived from them by {@code dup},
 * {@code split}, {@code splitType} and {@code create}, each over a railcoll sub-communicator of its own. Adds the
 * prefix reductions {@code scan} and {@code exScan} and the process topologies ({@link #createCart},
 * {@link #createGraph}, {@link #createDistGraph}) and {@link #createGroup}; dynamic processes are
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} errors (decision 0117, docs/mpi.md).
 */
public class Intracomm extends Comm {
    Intracomm(String name, boolean predefined) {
        super(name, predefined);
    }

    /** A topology's communicator for its neighbourhood collectives, made and freed with it; null without a topology. */
    NeighbourComm neighbourComm;

    /** Gives {@code made}, a topology communicator just made, its neighbourhood communicator; collective on it. */
    static <C extends Intracomm> C withNeighbourComm(C made) throws MPIException {
        ((Intracomm) made).neighbourComm = NeighbourComm.of(made);
        return made;
    }

    /** The backend the neighbourhood collectives of this topology communicator exchange on, for {@code call}. */
    final Backend neighbourBackend(String call) throws MPIException {
        return neighbourComm.backend(call);
    }

    @Override
    void releasing() throws MPIException {
        if (neighbourComm != null) {
            neighbourComm.free();
            neighbourComm = null;
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /** {@link Comm#iDup()}: the new communicator is an {@code Intracomm}. */
    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return withHints(dup(), info, "dupWithInfo");
    }

    /**
     * The processes of {@code group} (members of this communicator), numbered in the group's order
     * (MPI_Comm_create_group): collective over the group's members only, which pass the same group and {@code tag};
     * the other ranks of this communicator need not call it, and one that does gets a communicator whose
     * {@code isNull()} is true at once. railcoll's {@code createGroup} (decision 0125): the members agree on the new
     * communicator among themselves. It runs outside this communicator's call lock, so threads may make several at
     * once with distinct tags (MPI's rule). A group with a process outside this communicator is an
     * {@code MPI.ERR_GROUP} error, a negative tag {@code MPI.ERR_TAG}; members that pass another group or tag wait
     * until railcoll's deadline, whose {@code MPI.ERR_OTHER} error names the call.
     */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        Backend b = liveBackend("createGroup");
        java.util.Objects.requireNonNull(group, "group");
        int[] groupRanks = group.worldRanks();
        int[] mine = getGroup().worldRanks();
        int[] ranks = new int[groupRanks.length];
        boolean member = false;
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = Group.indexOf(mine, groupRanks[i]);
            if (ranks[i] < 0) {
                throw raise("createGroup", MPIException.of(MPI.ERR_GROUP, "invalid group: createGroup on " + describe()
                        + ": the group's process " + i + " (world rank " + groupRanks[i] + ") is not a member of it"));
            }
            member |= ranks[i] == b.rank();
        }
        if (tag < 0) {
            throw raise("createGroup", MPIException.of(MPI.ERR_TAG, "invalid tag: createGroup on " + describe()
                    + " with tag " + tag + "; tags are not negative"));
        }
        if (!member) {
            return adopt(Optional.empty(), "", n -> new Intracomm(n, false));
        }
        Backend made;
        try {
            made = b.createGroup(ranks, tag);
        } catch (RuntimeException e) {
            MPIException m = mpiError("createGroup", e);
            if (m == null) {
                throw e;
            }
            throw raise("createGroup", m);
        }
        return adopt(Optional.of(new Derived(made, groupRanks.clone())), ".createGroup(tag " + tag + ")",
                n -> new Intracomm(n, false));
    }

    // ---- process topologies (decisions 0117, 0124) and dynamic processes (none) ----

    /**
     * A communicator of the first {@code dims[0] * ... * dims[n-1]} ranks laid out on that grid, row-major, periodic
     * where {@code periods} says (MPI_Cart_create); collective. Ranks beyond the grid get a {@code CartComm} whose
     * {@code isNull()} is true. {@code reorder} is accepted and ignored: ranks keep their order, which MPI allows.
     * A grid larger than this communicator, or a dimension below 1, is an {@code MPI.ERR_DIMS} error.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        liveBackend("createCart");
        return CartComm.create(this, dims.clone(), periods.clone());
    }

    /**
     * A communicator of the first {@code index.length} ranks with the graph whose node {@code i} has the neighbours
     * {@code edges[index[i-1] .. index[i])} (MPI_Graph_create); collective, every rank passing the same graph. Ranks
     * beyond the graph get a {@code GraphComm} whose {@code isNull()} is true; {@code reorder} is accepted and ignored.
     * More nodes than ranks or a decreasing {@code index} is an {@code MPI.ERR_ARG} error, an edge to a node outside
     * the graph {@code MPI.ERR_RANK}.
     */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        liveBackend("createGraph");
        return Graphs.createGraph(this, index, edges);
    }

    /**
     * A communicator of every rank here with a distributed graph (MPI_Dist_graph_create): this rank gives
     * {@code degrees[i]} edges from {@code sources[i]} to the next entries of {@code destinations}, weighted by the
     * same entries of {@code weights}; any rank may give any edge. Collective: one all-to-all-v tells each rank the
     * edges that start or end at it. A rank outside the communicator is an {@code MPI.ERR_RANK} error on every rank.
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info,
            boolean reorder) throws MPIException {
        liveBackend("createDistGraph");
        return Graphs.create(this, sources, degrees, destinations, weights, true);
    }

    /** {@link #createDistGraph(int[], int[], int[], int[], Info, boolean)} without weights (MPI_UNWEIGHTED). */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        liveBackend("createDistGraph");
        return Graphs.create(this, sources, degrees, destinations, null, false);
    }

    /**
     * A communicator of every rank here with a distributed graph in which this rank receives from {@code sources}
     * and sends to {@code destinations}, in those orders (MPI_Dist_graph_create_adjacent); collective. The ranks
     * check that both ends list every edge equally often: where they do not, {@code MPI.ERR_TOPOLOGY} on every rank.
     */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
            int[] destWeights, Info info, boolean reorder) throws MPIException {
        liveBackend("createDistGraphAdjacent");
        return Graphs.createAdjacent(this, sources, sourceWeights, destinations, destWeights, true);
    }

    /** {@link #createDistGraphAdjacent(int[], int[], int[], int[], Info, boolean)} without weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        liveBackend("createDistGraphAdjacent");
        return Graphs.createAdjacent(this, sources, null, destinations, null, false);
    }

    /** MPI_Open_port: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static String openPort() throws MPIException {
        throw Unsupported.of("Intracomm.openPort", Unsupported.DYNAMIC);
    }

    /** MPI_Open_port: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static String openPort(Info info) throws MPIException {
        throw Unsupported.of("Intracomm.openPort", Unsupported.DYNAMIC);
    }

    /** MPI_Close_port: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static void closePort(String name) throws MPIException {
        throw Unsupported.of("Intracomm.closePort", Unsupported.DYNAMIC);
    }

    /** MPI_Comm_accept: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm accept(String port, int root) throws MPIException {
        throw dynamic("accept");
    }

    /** MPI_Comm_accept: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        throw dynamic("accept");
    }

    /** MPI_Comm_connect: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm connect(String port, int root) throws MPIException {
        throw dynamic("connect");
    }

    /** MPI_Comm_connect: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        throw dynamic("connect");
    }

    /** MPI_Publish_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static void publishName(String service, String port) throws MPIException {
        throw Unsupported.of("Intracomm.publishName", Unsupported.DYNAMIC);
    }

    /** MPI_Publish_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static void publishName(String service, Info info, String port) throws MPIException {
        throw Unsupported.of("Intracomm.publishName", Unsupported.DYNAMIC);
    }

    /** MPI_Unpublish_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static void unpublishName(String service, String port) throws MPIException {
        throw Unsupported.of("Intracomm.unpublishName", Unsupported.DYNAMIC);
    }

    /** MPI_Unpublish_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        throw Unsupported.of("Intracomm.unpublishName", Unsupported.DYNAMIC);
    }

    /** MPI_Lookup_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static String lookupName(String service) throws MPIException {
        throw Unsupported.of("Intracomm.lookupName", Unsupported.DYNAMIC);
    }

    /** MPI_Lookup_name: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public static String lookupName(String service, Info info) throws MPIException {
        throw Unsupported.of("Intracomm.lookupName", Unsupported.DYNAMIC);
    }

    /** MPI_Comm_spawn: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        throw dynamic("spawn");
    }

    /** MPI_Comm_spawn_multiple: {@code MPI.ERR_UNSUPPORTED_OPERATION} (no dynamic processes here). */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
            int[] errcodes) throws MPIException {
        throw dynamic("spawnMultiple");
    }

    private MPIException dynamic(String method) throws MPIException {
        liveBackend(method);
        return Unsupported.on(this, "Intracomm." + method, Unsupported.DYNAMIC);
    }

    /**
     * The ranks that pass the same {@code colour}, numbered in the order of {@code key}, ties broken by rank here
     * (MPI_Comm_split); collective. {@code MPI.UNDEFINED} takes part and gets a communicator whose {@code isNull()} is
     * true. Another negative colour is an {@code MPI.ERR_ARG} error, raised before anything is sent.
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        return derive("split", ".split(colour " + colour + ")", c -> {
            if (colour < 0 && colour != MPI.UNDEFINED) {
                throw c.error(MPI.ERR_ARG, "colour " + colour + " is negative and not MPI.UNDEFINED");
            }
            return c.backend.split(colour == MPI.UNDEFINED ? -1 : colour, key)
                    .map(b -> new Derived(b, worldRanksOf(b)));
        });
    }

    /**
     * The ranks that share memory with this one ({@code splitType} {@code Comm.TYPE_SHARED}: the ranks on this node),
     * numbered in the order of {@code key}, ties broken by rank here (MPI_Comm_split_type); collective. {@code info}
     * may be null or {@code MPI.INFO_NULL}; its hints are ignored. Carried out as railcoll's {@code splitByNode}, then,
     * only if the keys reorder the node's ranks, a split of that by key.
     */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return derive("splitType", ".splitType(shared)", c -> {
            if (splitType != TYPE_SHARED) {
                throw c.error(MPI.ERR_ARG, "split type " + splitType + " is not supported; only Comm.TYPE_SHARED ("
                        + TYPE_SHARED + ") is, and every rank must pass it");
            }
            Backend node = c.backend.splitByNode();
            int[] keyed = allGatherInts(node, key, MPI.worldRank()); // (key, world rank) of each, in node order
            int[] order = sortedByKey(IntStream.range(0, node.size()).map(i -> keyed[2 * i]).toArray());
            int[] members = Arrays.stream(order).map(i -> keyed[2 * i + 1]).toArray();
            if (isIdentity(order)) {
                return Optional.of(new Derived(node, members));
            }
            try {
                Backend sorted = node.split(0, key).orElseThrow();
                return Optional.of(new Derived(sorted, members));
            } finally {
                node.close();
            }
        });
    }

    /**
     * The processes of {@code group} (which must all be members of this communicator), numbered in the group's order
     * (MPI_Comm_create); collective, every rank passing the same group. A rank not in it gets a communicator whose
     * {@code isNull()} is true.
     */
    public final Intracomm create(Group group) throws MPIException {
        return derive("create", ".create", c -> {
            int[] groupRanks = group.worldRanks();
            int[] mine = getGroup().worldRanks();
            int[] ranks = new int[groupRanks.length];
            for (int i = 0; i < ranks.length; i++) {
                ranks[i] = Group.indexOf(mine, groupRanks[i]);
                if (ranks[i] < 0) {
                    throw c.error(MPI.ERR_GROUP, "the group's process " + i + " (world rank " + groupRanks[i]
                            + ") is not a member of this communicator");
                }
            }
            return c.backend.create(ranks).map(b -> new Derived(b, groupRanks.clone()));
        });
    }

    /** The indices of {@code keys}, stably sorted by key: the order a split by these keys numbers the ranks in. */
    private static int[] sortedByKey(int[] keys) {
        return IntStream.range(0, keys.length).boxed()
                .sorted(Comparator.comparingInt(i -> keys[i])).mapToInt(Integer::intValue).toArray();
    }

    private static boolean isIdentity(int[] order) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Rank r's {@code recvbuf} gets {@code s0 op s1 op ... op sr} of the ranks' {@code count} elements, in rank order. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        prefix("scan", false, sendbuf, recvbuf, count, type, op, false);
    }

    /** In place: {@code recvbuf} holds this rank's {@code count} elements and receives its prefix. */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        prefix("scan", true, null, recvbuf, count, type, op, false);
    }

    /**
     * Rank r's {@code recvbuf} gets {@code s0 op ... op s(r-1)}; rank 0's {@code recvbuf} is left as it is (MPI leaves
     * it undefined).
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        prefix("exScan", false, sendbuf, recvbuf, count, type, op, true);
    }

    /** In place: {@code buf} holds this rank's elements and receives its exclusive prefix; rank 0's is unchanged. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        prefix("exScan", true, null, buf, count, type, op, true);
    }

    /** Starts {@link #scan(Object, Object, int, Datatype, Op)}. */
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iprefix("iScan", sendbuf, recvbuf, count, type, op, false);
    }

    /** Starts the in-place {@link #scan(Object, int, Datatype, Op)}. */
    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iprefix("iScan", buf, count, type, op, false);
    }

    /** Starts {@link #exScan(Object, Object, int, Datatype, Op)}: rank 0's {@code recvbuf} is left as it is. */
    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return iprefix("iExScan", sendbuf, recvbuf, count, type, op, true);
    }

    /** Starts the in-place {@link #exScan(Object, int, Datatype, Op)}: rank 0's {@code buf} is left as it is. */
    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return iprefix("iExScan", buf, count, type, op, true);
    }
}
