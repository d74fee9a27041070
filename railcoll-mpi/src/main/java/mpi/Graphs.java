package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import static mpi.Intracomm.withNeighbourComm;

/**
 * Makes graph and distributed-graph communicators (decision 0124). {@code createGraph} is railcoll's {@code create}
 * of the graph's first ranks, every rank having checked the same arguments. A distributed graph holds every rank of
 * its parent (a dup); before it is made the ranks agree that every one's arguments are valid (one all-gather of an
 * int), so a bad rank or count on one rank is an error on all, never a hang. {@code createDistGraph} then tells each
 * rank the edges others gave that start or end at it (an all-to-all of counts, an all-to-all-v of edges);
 * {@code createDistGraphAdjacent} checks that both ends of every edge list it equally often (an all-to-all of counts
 * and an all-gather of the verdict).
 */
final class Graphs {
    /** One edge as the all-to-all-v carries it: whether the receiver is its source or destination, the other end, weight. */
    private static final int EDGE_INTS = 3;
    private static final int OUT = 0;
    private static final int IN = 1;

    private Graphs() {
    }

    /**
     * Checks a graph of {@code MPI_Graph_create} against {@code comm}: {@code MPI.ERR_ARG} for null arrays, more nodes
     * than ranks, cumulative degrees that decrease or exceed the edges given; {@code MPI.ERR_RANK} for an edge to a
     * node outside the graph. Returns the number of edges.
     */
    static int checkGraph(Comm comm, String call, int[] index, int[] edges) throws MPIException {
        if (index == null || edges == null) {
            throw comm.raise(call, argError(call, "index and edges must not be null"));
        }
        int nodes = index.length;
        if (nodes > comm.getSize()) {
            throw comm.raise(call, argError(call, "the graph has " + nodes + " nodes, more than the " + comm.getSize()
                    + " ranks of " + comm.describe()));
        }
        int previous = 0;
        for (int i = 0; i < nodes; i++) {
            if (index[i] < previous) {
                throw comm.raise(call, argError(call, "index[" + i + "] is " + index[i] + ", below "
                        + (i == 0 ? "0" : "index[" + (i - 1) + "] = " + previous) + "; index holds cumulative degrees"));
            }
            previous = index[i];
        }
        if (previous > edges.length) {
            throw comm.raise(call, argError(call, "index says the graph has " + previous + " edges but edges has only "
                    + edges.length));
        }
        for (int node = 0, e = 0; node < nodes; node++) {
            for (; e < index[node]; e++) {
                if (edges[e] < 0 || edges[e] >= nodes) {
                    throw comm.raise(call, MPIException.of(MPI.ERR_RANK, "invalid rank: " + call + ": edges[" + e
                            + "] (a neighbour of node " + node + ") is " + edges[e] + ", outside the graph's nodes 0.."
                            + (nodes - 1)));
                }
            }
        }
        return previous;
    }

    /** MPI_Graph_create: the first {@code index.length} ranks of {@code parent}; the others get a null communicator. */
    static GraphComm createGraph(Intracomm parent, int[] index, int[] edges) throws MPIException {
        int edgeCount = checkGraph(parent, "createGraph", index, edges);
        int[] graphIndex = index.clone();
        int[] graphEdges = Arrays.copyOf(edges, edgeCount);
        int[] nodes = new int[index.length];
        Arrays.setAll(nodes, i -> i);
        int[] members = Arrays.copyOf(parent.getGroup().worldRanks(), nodes.length);
        GraphTopology topo = GraphTopology.graph(graphIndex, graphEdges);
        return withNeighbourComm(parent.derive("createGraph", ".graph",
                c -> c.backend.create(nodes).map(b -> new Comm.Derived(b, members)), n -> new GraphComm(n, topo)));
    }

    /** MPI_Dist_graph_create_adjacent: this rank's sources and destinations as given, checked against the others'. */
    static GraphComm createAdjacent(Intracomm parent, int[] sources, int[] sourceWeights, int[] destinations,
            int[] destWeights, boolean weighted) throws MPIException {
        String call = "createDistGraphAdjacent";
        int size = parent.getSize();
        int[] members = parent.getGroup().worldRanks();
        GraphTopology[] topo = new GraphTopology[1];
        return withNeighbourComm(parent.derive(call, ".distGraph", c -> {
            MPIException bad = adjacentProblem(c, sources, sourceWeights, destinations, destWeights, weighted, size);
            agree(c, bad);
            int[] outTo = new int[size];
            for (int d : destinations) {
                outTo[d]++;
            }
            int[] inFrom = allToAllInts(c.backend, outTo); // how often each rank lists this one as a destination
            int[] mine = new int[size];
            for (int s : sources) {
                mine[s]++;
            }
            int disagree = -1;
            for (int r = 0; r < size && disagree < 0; r++) {
                if (inFrom[r] != mine[r]) {
                    disagree = r;
                }
            }
            int[] verdicts = allGather(c.backend, disagree);
            for (int r = 0; r < size; r++) {
                if (verdicts[r] >= 0) {
                    String detail = r == c.rank ? "this rank lists rank " + disagree + " as a source "
                            + mine[disagree] + " times but rank " + disagree + " lists it as a destination "
                            + inFrom[disagree] + " times" : "rank " + r + " and rank " + verdicts[r]
                            + " disagree on the edges between them (see rank " + r + "'s error)";
                    throw c.error(MPI.ERR_TOPOLOGY, "invalid topology: " + detail
                            + "; every edge must be listed by both its ends, as often");
                }
            }
            topo[0] = GraphTopology.distributed(sources.clone(), weightsOr(sourceWeights, sources, weighted),
                    destinations.clone(), weightsOr(destWeights, destinations, weighted), weighted);
            return java.util.Optional.of(new Comm.Derived(c.backend.dup(), members));
        }, n -> new GraphComm(n, topo[0])));
    }

    /**
     * MPI_Dist_graph_create: {@code degrees[i]} edges from {@code sources[i]}, to the next entries of
     * {@code destinations}, given by any rank; each rank learns those that start or end at it. Its sources and
     * destinations are in the order of the ranks that gave the edges, then of their lists.
     */
    static GraphComm create(Intracomm parent, int[] sources, int[] degrees, int[] destinations, int[] weights,
            boolean weighted) throws MPIException {
        String call = "createDistGraph";
        int size = parent.getSize();
        int[] members = parent.getGroup().worldRanks();
        GraphTopology[] topo = new GraphTopology[1];
        return withNeighbourComm(parent.derive(call, ".distGraph", c -> {
            agree(c, distProblem(c, sources, degrees, destinations, weights, weighted, size));
            int[] records = new int[size];
            for (int i = 0, e = 0; i < sources.length; i++) {
                for (int k = 0; k < degrees[i]; k++, e++) {
                    records[sources[i]]++;
                    records[destinations[e]]++;
                }
            }
            long[] sendBytes = new long[size];
            long[] at = new long[size];
            long total = 0;
            for (int r = 0; r < size; r++) {
                at[r] = total;
                sendBytes[r] = (long) records[r] * EDGE_INTS * Integer.BYTES;
                total += sendBytes[r];
            }
            MemorySegment send = MemorySegment.ofArray(new byte[(int) total]);
            for (int i = 0, e = 0; i < sources.length; i++) {
                for (int k = 0; k < degrees[i]; k++, e++) {
                    int w = weighted ? weights[e] : 1;
                    at[sources[i]] = put(send, at[sources[i]], OUT, destinations[e], w);
                    at[destinations[e]] = put(send, at[destinations[e]], IN, sources[i], w);
                }
            }
            int[] counts = allToAllInts(c.backend, records);
            long[] recvBytes = new long[size];
            long recvTotal = 0;
            for (int r = 0; r < size; r++) {
                recvBytes[r] = (long) counts[r] * EDGE_INTS * Integer.BYTES;
                recvTotal += recvBytes[r];
            }
            MemorySegment recv = MemorySegment.ofArray(new byte[Math.toIntExact(recvTotal)]);
            c.backend.alltoallv(send, sendBytes, recv, recvBytes);
            topo[0] = edgesOf(recv, weighted);
            return java.util.Optional.of(new Comm.Derived(c.backend.dup(), members));
        }, n -> new GraphComm(n, topo[0])));
    }

    private static long put(MemorySegment to, long at, int kind, int peer, int weight) {
        to.set(ValueLayout.JAVA_INT_UNALIGNED, at, kind);
        to.set(ValueLayout.JAVA_INT_UNALIGNED, at + 4, peer);
        to.set(ValueLayout.JAVA_INT_UNALIGNED, at + 8, weight);
        return at + EDGE_INTS * Integer.BYTES;
    }

    /** This rank's sources and destinations from the edges it received, in the order they came. */
    private static GraphTopology edgesOf(MemorySegment recv, boolean weighted) {
        int n = (int) (recv.byteSize() / (EDGE_INTS * Integer.BYTES));
        int[] sources = new int[n];
        int[] sourceWeights = new int[n];
        int[] destinations = new int[n];
        int[] destWeights = new int[n];
        int ins = 0;
        int outs = 0;
        for (int i = 0; i < n; i++) {
            long at = (long) i * EDGE_INTS * Integer.BYTES;
            int kind = recv.get(ValueLayout.JAVA_INT_UNALIGNED, at);
            int peer = recv.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4);
            int weight = recv.get(ValueLayout.JAVA_INT_UNALIGNED, at + 8);
            if (kind == IN) {
                sourceWeights[ins] = weight;
                sources[ins++] = peer;
            } else {
                destWeights[outs] = weight;
                destinations[outs++] = peer;
            }
        }
        return GraphTopology.distributed(Arrays.copyOf(sources, ins), Arrays.copyOf(sourceWeights, ins),
                Arrays.copyOf(destinations, outs), Arrays.copyOf(destWeights, outs), weighted);
    }

    /** The first problem of createDistGraphAdjacent's arguments on this rank, or null. */
    private static MPIException adjacentProblem(Call c, int[] sources, int[] sourceWeights, int[] destinations,
            int[] destWeights, boolean weighted, int size) {
        if (sources == null || destinations == null) {
            return c.error(MPI.ERR_ARG, "invalid argument: sources and destinations must not be null");
        }
        MPIException e = ranksProblem(c, "sources", sources, sources.length, size);
        if (e == null) {
            e = ranksProblem(c, "destinations", destinations, destinations.length, size);
        }
        if (e == null && weighted) {
            e = weightsProblem(c, "sourceWeights", sourceWeights, sources.length);
            if (e == null) {
                e = weightsProblem(c, "destWeights", destWeights, destinations.length);
            }
        }
        return e;
    }

    /** The first problem of createDistGraph's arguments on this rank, or null. */
    private static MPIException distProblem(Call c, int[] sources, int[] degrees, int[] destinations, int[] weights,
            boolean weighted, int size) {
        if (sources == null || degrees == null || destinations == null) {
            return c.error(MPI.ERR_ARG, "invalid argument: sources, degrees and destinations must not be null");
        }
        if (degrees.length != sources.length) {
            return c.error(MPI.ERR_ARG, "invalid argument: " + sources.length + " sources but " + degrees.length
                    + " degrees; degrees[i] is the number of edges from sources[i]");
        }
        long edges = 0;
        for (int i = 0; i < degrees.length; i++) {
            if (degrees[i] < 0) {
                return c.error(MPI.ERR_ARG, "invalid argument: degrees[" + i + "] is " + degrees[i]);
            }
            edges += degrees[i];
        }
        if (edges > destinations.length) {
            return c.error(MPI.ERR_ARG, "invalid argument: degrees add up to " + edges + " edges but destinations has "
                    + destinations.length);
        }
        MPIException e = ranksProblem(c, "sources", sources, sources.length, size);
        if (e == null) {
            e = ranksProblem(c, "destinations", destinations, (int) edges, size);
        }
        if (e == null && weighted) {
            e = weightsProblem(c, "weights", weights, (int) edges);
        }
        return e;
    }

    private static MPIException ranksProblem(Call c, String what, int[] ranks, int n, int size) {
        for (int i = 0; i < n; i++) {
            if (ranks[i] < 0 || ranks[i] >= size) {
                return c.error(MPI.ERR_RANK, "invalid rank: " + what + "[" + i + "] is " + ranks[i] + ", outside 0.."
                        + (size - 1));
            }
        }
        return null;
    }

    private static MPIException weightsProblem(Call c, String what, int[] weights, int n) {
        if (weights == null || weights.length < n) {
            return c.error(MPI.ERR_ARG, "invalid argument: " + what + " must have " + n + " entries, one per edge, not "
                    + (weights == null ? "null" : weights.length));
        }
        for (int i = 0; i < n; i++) {
            if (weights[i] < 0) {
                return c.error(MPI.ERR_ARG, "invalid argument: " + what + "[" + i + "] is " + weights[i]
                        + "; weights are not negative");
            }
        }
        return null;
    }

    private static int[] weightsOr(int[] weights, int[] edges, boolean weighted) {
        if (!weighted) {
            int[] ones = new int[edges.length];
            Arrays.fill(ones, 1);
            return ones;
        }
        return Arrays.copyOf(weights, edges.length);
    }

    /**
     * Every rank learns whether every rank's arguments are valid (an all-gather of error classes); this rank's own
     * error is thrown as it is, another's names that rank, so all ranks fail together.
     */
    private static void agree(Call c, MPIException mine) throws MPIException {
        int[] classes = allGather(c.backend, mine == null ? 0 : mine.getErrorClass());
        for (int r = 0; r < classes.length; r++) {
            if (classes[r] != 0) {
                if (mine != null) {
                    throw mine;
                }
                throw c.error(classes[r], "rank " + r + " passed invalid arguments (see its error); no rank makes the"
                        + " communicator");
            }
        }
    }

    private static MPIException argError(String call, String detail) {
        return MPIException.of(MPI.ERR_ARG, "invalid argument: " + call + ": " + detail);
    }

    private static int[] allGather(Backend b, int mine) {
        MemorySegment send = MemorySegment.ofArray(new byte[Integer.BYTES]);
        send.set(ValueLayout.JAVA_INT_UNALIGNED, 0, mine);
        MemorySegment recv = MemorySegment.ofArray(new byte[Integer.BYTES * b.size()]);
        b.allgather(send, recv);
        return recv.toArray(ValueLayout.JAVA_INT_UNALIGNED);
    }

    private static int[] allToAllInts(Backend b, int[] mine) {
        MemorySegment send = MemorySegment.ofArray(new byte[Integer.BYTES * mine.length]);
        MemorySegment.copy(mine, 0, send, ValueLayout.JAVA_INT_UNALIGNED, 0, mine.length);
        MemorySegment recv = MemorySegment.ofArray(new byte[Integer.BYTES * b.size()]);
        b.alltoall(send, recv);
        return recv.toArray(ValueLayout.JAVA_INT_UNALIGNED);
    }
}
