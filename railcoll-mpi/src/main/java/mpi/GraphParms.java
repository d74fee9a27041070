package mpi;

/** What {@code GraphComm.getDims} returns: a graph's cumulative degrees ({@code index}) and its edges. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index.clone();
        this.edges = edges.clone();
    }

    public int getIndexCount() {
        return index.length;
    }

    public int getIndex(int i) {
        return index[i];
    }

    public int getEdgeCount() {
        return edges.length;
    }

    public int getEdge(int i) {
        return edges[i];
    }
}
