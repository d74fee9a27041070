package mpi;

/**
 * A communicator with a graph or distributed-graph topology. railcoll-mpi makes none ({@code Intracomm.createGraph}
 * and the dist-graph constructors are {@code MPI.ERR_UNSUPPORTED_OPERATION} errors, decision 0117), so its methods
 * are unreachable and refuse likewise.
 */
public final class GraphComm extends Intracomm {
    GraphComm() {
        super("MPI_COMM_NULL", false);
    }

    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    @Override
    public GraphComm dup() throws MPIException {
        throw unsupported("dup");
    }

    @Override
    public GraphComm iDup() throws MPIException {
        throw unsupported("iDup");
    }

    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        throw unsupported("dupWithInfo");
    }

    /** MPI_Graph_get: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public GraphParms getDims() throws MPIException {
        throw unsupported("getDims");
    }

    /** MPI_Graph_neighbors: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int[] getNeighbors(int rank) throws MPIException {
        throw unsupported("getNeighbors");
    }

    /** MPI_Dist_graph_neighbors: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        throw unsupported("getDistGraphNeighbors");
    }

    /** MPI_Graph_map: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int map(int[] index, int[] edges) throws MPIException {
        throw unsupported("map");
    }

    private MPIException unsupported(String method) throws MPIException {
        MPI.check();
        return Unsupported.on(this, "GraphComm." + method, Unsupported.GRAPH);
    }
}
