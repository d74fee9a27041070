package mpi;

/**
 * A communicator with a graph topology ({@code Intracomm.createGraph}: every process knows the whole graph) or a
 * distributed-graph topology ({@code Intracomm.createDistGraph}, {@code createDistGraphAdjacent}: each process knows
 * its own sources and destinations), decision 0124. The queries are local; every collective of an {@link Intracomm}
 * runs on it, and the neighbourhood collectives ({@link NeighbourExchange}) in MPI's neighbour order: a graph's
 * edges in the order given, a distributed graph's sources for what it receives and destinations for what it sends.
 */
public final class GraphComm extends Intracomm {
    private final GraphTopology topo;

    GraphComm(String name, GraphTopology topo) {
        super(name, false);
        this.topo = topo;
    }

    @Override
    int topology() {
        return topo.kind();
    }

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /** A new communicator of the same ranks and topology (MPI_Comm_dup); collective. */
    @Override
    public GraphComm dup() throws MPIException {
        return withNeighbourComm(dupAs(n -> new GraphComm(n, topo)));
    }

    @Override
    public GraphComm iDup() throws MPIException {
        return iDupAs(n -> new GraphComm(n, topo), true);
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return withHints(dup(), info, "dupWithInfo");
    }

    /** The graph's cumulative degrees and edges (MPI_Graph_get); on a distributed graph {@code MPI.ERR_TOPOLOGY}. */
    public GraphParms getDims() throws MPIException {
        requireGraph("getDims");
        return new GraphParms(topo.index(), topo.edges());
    }

    /**
     * The neighbours of {@code rank}, in the order of its edges (MPI_Graph_neighbors); a rank outside the graph is an
     * {@code MPI.ERR_RANK} error, a distributed graph {@code MPI.ERR_TOPOLOGY}.
     */
    public int[] getNeighbors(int rank) throws MPIException {
        requireGraph("getNeighbors");
        if (rank < 0 || rank >= topo.index().length) {
            throw raise("getNeighbors", MPIException.of(MPI.ERR_RANK, "invalid rank: getNeighbors(" + rank + ") on "
                    + describe() + ", a graph of " + topo.index().length + " nodes"));
        }
        return topo.neighboursOf(rank);
    }

    /**
     * This process's sources and destinations with their weights (MPI_Dist_graph_neighbors), in the order of its
     * neighbourhood collectives; on a graph of {@code createGraph} {@code MPI.ERR_TOPOLOGY}.
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        liveBackend("getDistGraphNeighbors");
        if (topo.kind() != MPI.DIST_GRAPH) {
            throw raise("getDistGraphNeighbors", MPIException.of(MPI.ERR_TOPOLOGY, "invalid topology: "
                    + "getDistGraphNeighbors on " + describe() + ", which has a graph topology (use getNeighbors)"));
        }
        return new DistGraphNeighbors(topo.sources(), topo.sourceWeights(), topo.destinations(), topo.destWeights(),
                topo.weighted());
    }

    /**
     * The rank this process would have in the graph {@code index}/{@code edges} (MPI_Graph_map): its rank here, as
     * railcoll-mpi does not reorder, or {@code MPI.UNDEFINED} if the graph has fewer nodes. The graph is checked as
     * {@code createGraph} checks it. Local.
     */
    public int map(int[] index, int[] edges) throws MPIException {
        liveBackend("map");
        Graphs.checkGraph(this, "map", index, edges);
        int rank = getRank();
        return rank < index.length ? rank : MPI.UNDEFINED;
    }

    private void requireGraph(String call) throws MPIException {
        liveBackend(call);
        if (topo.kind() != MPI.GRAPH) {
            throw raise(call, MPIException.of(MPI.ERR_TOPOLOGY, "invalid topology: " + call + " on " + describe()
                    + ", which has a distributed-graph topology (use getDistGraphNeighbors)"));
        }
    }

    /**
     * A graph's neighbours are its edges, each one message each way, which needs a symmetric graph (MPI's rule for
     * the neighbourhood collectives on a graph): otherwise {@code MPI.ERR_TOPOLOGY} on every rank, which all know the
     * graph, rather than a receive that waits for a message never sent.
     */
    @Override
    NeighbourExchange.Neighbours neighbours(String call) throws MPIException {
        liveBackend(call);
        Neighbourhood order;
        if (topo.kind() == MPI.GRAPH) {
            if (!topo.symmetric()) {
                throw raise(call, MPIException.of(MPI.ERR_TOPOLOGY, "invalid topology: " + call + " on "
                        + describe() + ": its graph is not symmetric (some node lists another more often than that one"
                        + " lists it), and MPI's neighbourhood collectives on a graph need every edge both ways"));
            }
            int[] mine = topo.neighboursOf(getRank());
            order = Neighbourhood.ordered(mine, mine);
        } else {
            order = Neighbourhood.ordered(topo.sources(), topo.destinations());
        }
        return new NeighbourExchange.Neighbours(order, neighbourBackend(call));
    }

}
