package mpi;

import java.util.HashMap;
import java.util.Map;

/**
 * The topology of a {@link GraphComm}: a graph of {@code MPI_Graph_create} (every process knows all of it: the
 * cumulative degrees {@code index} and the {@code edges}) or this process's part of a distributed graph (its sources
 * and destinations, in the order its neighbourhood collectives use, and their weights). Immutable.
 */
record GraphTopology(int kind, int[] index, int[] edges, boolean symmetric, int[] sources, int[] sourceWeights,
        int[] destinations, int[] destWeights, boolean weighted) {

    /** A graph: node {@code i}'s neighbours are {@code edges[index[i-1] .. index[i])} ({@code index[-1]} being 0). */
    static GraphTopology graph(int[] index, int[] edges) {
        return new GraphTopology(MPI.GRAPH, index.clone(), edges.clone(), symmetric(index, edges), null, null, null,
                null, false);
    }

    /** This process's part of a distributed graph. */
    static GraphTopology distributed(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
            boolean weighted) {
        return new GraphTopology(MPI.DIST_GRAPH, null, null, true, sources, sourceWeights, destinations, destWeights,
                weighted);
    }

    /** Node {@code node}'s neighbours, in the order of its edges. */
    int[] neighboursOf(int node) {
        int from = node == 0 ? 0 : index[node - 1];
        return java.util.Arrays.copyOfRange(edges, from, index[node]);
    }

    /**
     * Whether every two nodes list each other equally often (self-loops always do): MPI's condition for the
     * neighbourhood collectives on a graph, where each listed edge is one message each way.
     */
    private static boolean symmetric(int[] index, int[] edges) {
        Map<Long, Integer> count = new HashMap<>();
        for (int node = 0, e = 0; node < index.length; node++) {
            for (; e < index[node]; e++) {
                count.merge(((long) node << 32) | edges[e], 1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> edge : count.entrySet()) {
            long from = edge.getKey() >>> 32;
            long to = edge.getKey() & 0xffffffffL;
            if (!edge.getValue().equals(count.get((to << 32) | from))) {
                return false;
            }
        }
        return true;
    }
}
