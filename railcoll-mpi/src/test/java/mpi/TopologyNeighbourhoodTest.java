package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static mpi.NeighbourModel.COUNT;
import static mpi.NeighbourModel.STRIDE;
import static mpi.NeighbourModel.filled;
import static mpi.NeighbourModel.gathered;
import static mpi.NeighbourModel.payload;
import static mpi.NeighbourModel.vcount;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The neighbourhood collectives, blocking and non-blocking, on Cartesian grids (periodic and not, dimensions of 1 and
 * 2) and their rows made by {@code sub}, graphs (self-loops, repeated edges, an empty neighbourhood, ranks left out)
 * and distributed graphs (adjacent and not), on 5 ranks over nodes of 2, 1 and 2 and on 3 ranks over nodes of 1 and
 * 2, in this JVM (real railcoll
 * communicators: shared memory between node-mates, TCP between nodes). Every result is compared element for element
 * with {@link NeighbourModel}'s, computed from the test's own account of the neighbours; the i-forms on direct and
 * heap buffers are all in flight together and completed in another order than started.
 */
class TopologyNeighbourhoodTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void fiveRanksOnNodesOfTwoOneAndTwo() throws Exception {
        int n = 5;
        List<Object> reports = InProcessComms.onNodes(new int[] {2, 1, 2}, (comm, r) -> {
            List<String> bad = new ArrayList<>();
            int checks = carts(comm, r, n, bad, new int[][] {{5}, {5}, {1, 5}, {2, 2}, {2, 2}, {1}},
                    new boolean[][] {{true}, {false}, {true, false}, {true, true}, {false, true}, {true}});
            // A graph of 5 nodes: edge 0-1 twice, a self-loop at 0, two self-loops at 2, node 4 with no neighbour.
            int[] index = {4, 7, 10, 11, 11};
            int[] edges = {1, 1, 0, 2, 0, 0, 3, 0, 2, 2, 1};
            checks += graph(comm, r, n, index, edges, bad);
            // Adjacent: r receives from r-1 twice and from itself, sends to r+1 twice and to itself; weighted.
            int[][] in = new int[n][];
            int[][] out = new int[n][];
            for (int k = 0; k < n; k++) {
                in[k] = new int[] {(k + n - 1) % n, k, (k + n - 1) % n};
                out[k] = new int[] {(k + 1) % n, (k + 1) % n, k};
            }
            checks += adjacent(comm, r, in, out, bad);
            checks += distributed(comm, r, n, bad);
            return bad.isEmpty() ? "ok " + checks : String.join("\n", bad);
        });
        for (int r = 0; r < n; r++) {
            assertEquals("ok " + expectedChecks(r, 5), reports.get(r), "rank " + r);
        }
    }

    @Test
    void threeRanksOnNodesOfOneAndTwo() throws Exception {
        int n = 3;
        List<Object> reports = InProcessComms.onNodes(new int[] {1, 2}, (comm, r) -> {
            List<String> bad = new ArrayList<>();
            int checks = carts(comm, r, n, bad, new int[][] {{3}, {3, 1}, {1, 3}, {2}},
                    new boolean[][] {{true}, {false, true}, {true, false}, {true}});
            checks += graph(comm, r, n, new int[] {2, 3}, new int[] {0, 1, 0}, bad); // rank 2 outside the graph
            // Adjacent: rank 2 neither sends nor receives; 0 and 1 exchange both ways, 0 with itself.
            checks += adjacent(comm, r, new int[][] {{1, 0}, {0}, {}}, new int[][] {{0, 1}, {0}, {}}, bad);
            checks += distributed(comm, r, n, bad);
            return bad.isEmpty() ? "ok " + checks : String.join("\n", bad);
        });
        for (int r = 0; r < n; r++) {
            assertEquals("ok " + expectedChecks(r, 3), reports.get(r), "rank " + r);
        }
    }

    /** The checks rank {@code r} makes in the runs above: eight per topology it is part of, plus the queries. */
    private static int expectedChecks(int r, int n) {
        int carts = n == 5 ? 3 + (r < 4 ? 2 : 0) + (r == 0 ? 1 : 0) : 3 + (r < 2 ? 1 : 0);
        carts += n == 5 ? 1 + (r < 4 ? 2 : 0) : 2; // the rows of the 2-D grids
        int graph = n == 5 || r < 2 ? 8 + 1 + 8 : 0; // the graph, its queries, its dup
        return 8 * carts + graph + (8 + 1) + (8 + 1); // adjacent, distributed: collectives and queries
    }

    private static int carts(Intracomm comm, int r, int n, List<String> bad, int[][] dims, boolean[][] periods)
            throws MPIException {
        int checks = 0;
        for (int g = 0; g < dims.length; g++) {
            CartComm cart = comm.createCart(dims[g], periods[g], false);
            String label = "cart " + Arrays.toString(dims[g]) + Arrays.toString(periods[g]);
            if (cart.isNull()) {
                continue;
            }
            expect(bad, label + " topology", MPI.CART, cart.getTopology());
            checks += exercise(cart, NeighbourModel.cart(n, dims[g], periods[g]), r, label, bad);
            if (dims[g].length == 2) { // its rows, made by sub, with a neighbourhood communicator of their own
                CartComm row = cart.sub(new boolean[] {false, true});
                checks += exercise(row, NeighbourModel.cart(row.getSize(), new int[] {dims[g][1]},
                        new boolean[] {periods[g][1]}), row.getRank(), label + " row", bad);
                row.free();
            }
            cart.free();
        }
        return checks;
    }

    private static int graph(Intracomm comm, int r, int n, int[] index, int[] edges, List<String> bad)
            throws MPIException {
        GraphComm g = comm.createGraph(index, edges, true);
        int[][] neighbours = new int[n][];
        for (int node = 0; node < index.length; node++) {
            neighbours[node] = Arrays.copyOfRange(edges, node == 0 ? 0 : index[node - 1], index[node]);
        }
        expect(bad, "graph map", r < index.length ? r : MPI.UNDEFINED, mapOn(comm, index, edges));
        if (g.isNull()) {
            expect(bad, "graph left out", true, r >= index.length);
            return 0;
        }
        expect(bad, "graph topology", MPI.GRAPH, g.getTopology());
        GraphParms p = g.getDims();
        expect(bad, "graph getDims", Arrays.toString(index) + Arrays.toString(edges), Arrays.toString(
                java.util.stream.IntStream.range(0, p.getIndexCount()).map(p::getIndex).toArray()) + Arrays.toString(
                java.util.stream.IntStream.range(0, p.getEdgeCount()).map(p::getEdge).toArray()));
        expect(bad, "graph getNeighbors", Arrays.toString(neighbours[(r + 1) % index.length]),
                Arrays.toString(g.getNeighbors((r + 1) % index.length)));
        NeighbourModel m = NeighbourModel.ordered(neighbours, neighbours);
        int checks = exercise(g, m, r, "graph", bad) + 1;
        GraphComm copy = g.dup();
        g.free();
        expect(bad, "graph dup topology", MPI.GRAPH, copy.getTopology());
        checks += exercise(copy, m, r, "graph dup", bad);
        copy.free();
        return checks;
    }

    /** MPI_Graph_map through a GraphComm is not reachable from COMM_WORLD; a graph over every rank answers it. */
    private static int mapOn(Intracomm comm, int[] index, int[] edges) throws MPIException {
        int[] everyone = new int[comm.getSize()];
        Arrays.setAll(everyone, i -> i + 1);
        int[] ring = new int[comm.getSize()];
        Arrays.setAll(ring, i -> i);
        GraphComm all = comm.createGraph(everyone, ring, false); // node i's one edge goes to itself
        int mapped = all.map(index, edges);
        all.free();
        return mapped;
    }

    private static int adjacent(Intracomm comm, int r, int[][] in, int[][] out, List<String> bad)
            throws MPIException {
        int[] sw = Arrays.stream(in[r]).map(s -> 10 * s + r).toArray();
        int[] dw = Arrays.stream(out[r]).map(d -> 10 * r + d).toArray();
        GraphComm g = comm.createDistGraphAdjacent(in[r], sw, out[r], dw, MPI.INFO_NULL, false);
        expect(bad, "adjacent topology", MPI.DIST_GRAPH, g.getTopology());
        DistGraphNeighbors d = g.getDistGraphNeighbors();
        expect(bad, "adjacent neighbours", Arrays.toString(in[r]) + Arrays.toString(sw) + Arrays.toString(out[r])
                + Arrays.toString(dw) + true, neighboursOf(d));
        int checks = exercise(g, NeighbourModel.ordered(in, out), r, "adjacent", bad) + 1;
        g.free();
        return checks;
    }

    /**
     * createDistGraph: rank k (but the last) gives two edges k -> k+2; rank 0 also gives a self-loop 1 -> 1 and the
     * last rank gives none. A rank's sources and destinations come in the order of the ranks that gave them.
     */
    private static int distributed(Intracomm comm, int r, int n, List<String> bad) throws MPIException {
        int[] sources;
        int[] degrees;
        int[] dests;
        if (r == n - 1) {
            sources = new int[0];
            degrees = new int[0];
            dests = new int[0];
        } else if (r == 0) {
            sources = new int[] {0, 1};
            degrees = new int[] {2, 1};
            dests = new int[] {2 % n, 2 % n, 1};
        } else {
            sources = new int[] {r};
            degrees = new int[] {2};
            dests = new int[] {(r + 2) % n, (r + 2) % n};
        }
        // The model, in the order of the giving ranks: rank k's edges k -> k+2 (twice), then rank 0's 1 -> 1 first.
        List<List<Integer>> in = new ArrayList<>();
        List<List<Integer>> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            in.add(new ArrayList<>());
            out.add(new ArrayList<>());
        }
        for (int giver = 0; giver < n - 1; giver++) {
            for (int twice = 0; twice < 2; twice++) {
                out.get(giver).add((giver + 2) % n);
                in.get((giver + 2) % n).add(giver);
            }
            if (giver == 0) {
                out.get(1).add(1);
                in.get(1).add(1);
            }
        }
        int[][] inArr = in.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        int[][] outArr = out.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        GraphComm g = comm.createDistGraph(sources, degrees, dests, MPI.INFO_NULL, false);
        DistGraphNeighbors d = g.getDistGraphNeighbors();
        expect(bad, "distributed neighbours", Arrays.toString(inArr[r]) + Arrays.toString(outArr[r]) + false,
                Arrays.toString(ints(d.getInDegree(), d::getSource)) + Arrays.toString(ints(d.getOutDegree(),
                        d::getDestination)) + d.isWeighted());
        int checks = exercise(g, NeighbourModel.ordered(inArr, outArr), r, "distributed", bad) + 1;
        g.free();
        return checks;
    }

    private static String neighboursOf(DistGraphNeighbors d) {
        return Arrays.toString(ints(d.getInDegree(), d::getSource)) + Arrays.toString(ints(d.getInDegree(),
                d::getSourceWeight)) + Arrays.toString(ints(d.getOutDegree(), d::getDestination))
                + Arrays.toString(ints(d.getOutDegree(), d::getDestinationWeight)) + d.isWeighted();
    }

    private static int[] ints(int n, java.util.function.IntUnaryOperator f) {
        return java.util.stream.IntStream.range(0, n).map(f).toArray();
    }

    /**
     * The eight neighbourhood collectives on {@code topo}, checked against {@code m}: the blocking forms on arrays,
     * then the i-forms all started (direct buffers, a heap buffer for the all-gatherv) and completed last first.
     */
    static int exercise(Comm topo, NeighbourModel m, int r, String label, List<String> bad) throws MPIException {
        int[] src = m.sources()[r];
        int[] dst = m.destinations()[r];
        int in = src.length;
        int out = dst.length;
        int[] mine = {gathered(r, 0), gathered(r, 1)};
        int[] blocks = new int[out * COUNT];
        for (int j = 0; j < out; j++) {
            for (int e = 0; e < COUNT; e++) {
                blocks[j * COUNT + e] = payload(r, j, e);
            }
        }
        int[] counts = new int[in];
        Arrays.fill(counts, COUNT);
        int[] reversed = new int[in];
        Arrays.setAll(reversed, i -> (in - 1 - i) * STRIDE);
        int[] sendCounts = new int[out];
        Arrays.setAll(sendCounts, j -> dst[j] == MPI.PROC_NULL ? 1 : vcount(r, dst[j]));
        int[] sdispls = new int[out];
        Arrays.setAll(sdispls, j -> j * STRIDE);
        int[] vblocks = new int[out * STRIDE];
        for (int j = 0; j < out; j++) {
            for (int e = 0; e < sendCounts[j]; e++) {
                vblocks[j * STRIDE + e] = payload(r, j, e);
            }
        }
        int[] recvCounts = new int[in];
        Arrays.setAll(recvCounts, i -> src[i] == MPI.PROC_NULL ? 1 : vcount(src[i], r));

        int[] ag = filled(in * COUNT);
        topo.neighborAllGather(mine, COUNT, MPI.INT, ag, COUNT, MPI.INT);
        compare(bad, label, "neighborAllGather", m.expectAllGather(r), ag);
        int[] agv = filled(in * STRIDE);
        topo.neighborAllGatherv(mine, COUNT, MPI.INT, agv, counts, reversed, MPI.INT);
        compare(bad, label, "neighborAllGatherv", m.expectAllGatherv(r), agv);
        int[] a2a = filled(in * COUNT);
        topo.neighborAllToAll(blocks, COUNT, MPI.INT, a2a, COUNT, MPI.INT);
        compare(bad, label, "neighborAllToAll", m.expectAllToAll(r), a2a);
        int[] a2av = filled(in * STRIDE);
        topo.neighborAllToAllv(vblocks, sendCounts, sdispls, MPI.INT, a2av, recvCounts, reversed, MPI.INT);
        compare(bad, label, "neighborAllToAllv", m.expectAllToAllv(r), a2av);

        IntBuffer iag = direct(filled(in * COUNT));
        IntBuffer iagv = IntBuffer.wrap(filled(in * STRIDE)); // a heap buffer: packed and unpacked by the request
        IntBuffer ia2a = direct(filled(in * COUNT));
        IntBuffer ia2av = direct(filled(in * STRIDE));
        Request[] started = {
            topo.iNeighborAllGather(direct(mine), COUNT, MPI.INT, iag, COUNT, MPI.INT),
            topo.iNeighborAllGatherv(IntBuffer.wrap(mine), COUNT, MPI.INT, iagv, counts, reversed, MPI.INT),
            topo.iNeighborAllToAll(direct(blocks), COUNT, MPI.INT, ia2a, COUNT, MPI.INT),
            topo.iNeighborAllToAllv(direct(vblocks), sendCounts, sdispls, MPI.INT, ia2av, recvCounts, reversed,
                    MPI.INT)};
        started[3].waitFor();
        while (!started[1].test()) {
            Thread.onSpinWait();
        }
        started[2].waitFor();
        Request.waitAll(new Request[] {started[0]});
        compare(bad, label, "iNeighborAllGather", m.expectAllGather(r), array(iag));
        compare(bad, label, "iNeighborAllGatherv", m.expectAllGatherv(r), array(iagv));
        compare(bad, label, "iNeighborAllToAll", m.expectAllToAll(r), array(ia2a));
        compare(bad, label, "iNeighborAllToAllv", m.expectAllToAllv(r), array(ia2av));
        return 8;
    }

    static IntBuffer direct(int[] values) {
        IntBuffer b = MPI.newIntBuffer(Math.max(1, values.length));
        b.put(0, values);
        return b;
    }

    static int[] array(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }

    private static void compare(List<String> bad, String label, String call, int[] want, int[] got) {
        int[] g = got.length > want.length ? Arrays.copyOf(got, want.length) : got;
        if (!Arrays.equals(want, g)) {
            bad.add(label + " " + call + ": got " + Arrays.toString(g) + " want " + Arrays.toString(want));
        }
    }

    private static void expect(List<String> bad, String what, Object want, Object got) {
        if (!want.equals(got)) {
            bad.add(what + ": got " + got + " want " + want);
        }
    }
}
