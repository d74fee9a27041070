import java.nio.IntBuffer;
import java.util.Arrays;

import mpi.*;

/**
 * Process topologies as stencil and graph codes use them, on any number of ranks: a periodic ring and a
 * non-periodic 2-D grid from createDims, a graph ring whose nodes also list themselves and their right neighbour
 * twice, an adjacent distributed graph and one made by createDistGraph from edges that rank 0 gives for everyone,
 * and createGroup of the even ranks by those ranks alone. On each topology every neighbourhood collective, blocking and
 * not (the i-forms in flight together, completed last first), is checked against blocks computed here from the
 * topology's own arithmetic: MPI's pairing, the k-th message from j to i in i's k-th slot for j.
 */
public class Topologies {
    static int rank;
    static int size;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.getRank();
        size = MPI.COMM_WORLD.getSize();

        // ---- a periodic ring: neighbours below and above, tags keeping the two sides apart ----
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {size}, new boolean[] {true}, false);
        exercise("ring", ring, cart(new int[] {size}, new boolean[] {true}));
        ring.free();

        // ---- a 2-D grid, not periodic ----
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, false);
        exercise("grid", grid, cart(dims, new boolean[] {false, false}));
        grid.free();

        // ---- a graph: node i lists i+1 twice, i-1 twice, itself once (symmetric) ----
        int[] index = new int[size];
        int[] edges = new int[5 * size];
        for (int i = 0, e = 0; i < size; i++) {
            for (int n : new int[] {(i + 1) % size, i, (i + size - 1) % size, (i + 1) % size, (i + size - 1) % size}) {
                edges[e++] = n;
            }
            index[i] = e;
        }
        GraphComm graph = MPI.COMM_WORLD.createGraph(index, edges, false);
        int[][] lists = new int[size][];
        for (int i = 0; i < size; i++) {
            lists[i] = Arrays.copyOfRange(edges, 5 * i, 5 * i + 5);
        }
        check("graph neighbours", graph.getNeighbors(rank), lists[rank]);
        exercise("graph", graph, new int[][][] {lists, new int[size][5], lists, new int[size][5]});
        graph.free();

        // ---- an adjacent distributed graph: receive from the two ranks below, send to the two above ----
        int[][] in = new int[size][];
        int[][] out = new int[size][];
        for (int i = 0; i < size; i++) {
            in[i] = new int[] {(i + size - 1) % size, (i + size - 2) % size};
            out[i] = new int[] {(i + 1) % size, (i + 2) % size};
        }
        GraphComm adjacent = MPI.COMM_WORLD.createDistGraphAdjacent(in[rank], out[rank], MPI.INFO_NULL, false);
        exercise("adjacent", adjacent, new int[][][] {in, new int[size][2], out, new int[size][2]});
        adjacent.free();

        // ---- createDistGraph: rank 0 gives every edge i -> (i*2) % size; the others give none ----
        int[] sources = new int[rank == 0 ? size : 0];
        int[] degrees = new int[sources.length];
        int[] dests = new int[sources.length];
        for (int i = 0; i < sources.length; i++) {
            sources[i] = i;
            degrees[i] = 1;
            dests[i] = (2 * i) % size;
        }
        GraphComm given = MPI.COMM_WORLD.createDistGraph(sources, degrees, dests, MPI.INFO_NULL, false);
        int[][] gin = new int[size][];
        int[][] gout = new int[size][];
        for (int i = 0; i < size; i++) {
            int me = i;
            gout[i] = new int[] {(2 * i) % size};
            gin[i] = java.util.stream.IntStream.range(0, size).filter(s -> (2 * s) % size == me).toArray();
        }
        DistGraphNeighbors d = given.getDistGraphNeighbors();
        int[] gotIn = new int[d.getInDegree()];
        Arrays.setAll(gotIn, d::getSource);
        check("distributed sources", gotIn, gin[rank]);
        exercise("distributed", given, new int[][][] {gin, zeros(gin), gout, zeros(gout)});
        given.free();

        // ---- createGroup: the even ranks make a communicator; the odd ranks do not call it ----
        if (rank % 2 == 0) {
            int[] evens = java.util.stream.IntStream.range(0, size).filter(r -> r % 2 == 0).toArray();
            Intracomm even = MPI.COMM_WORLD.createGroup(MPI.COMM_WORLD.getGroup().incl(evens), 3);
            int[] sum = new int[1];
            even.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            check("createGroup", new int[] {even.getSize(), even.getRank(), sum[0]},
                    new int[] {evens.length, rank / 2, Arrays.stream(evens).sum()});
            even.free();
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private static int[][] zeros(int[][] like) {
        int[][] z = new int[like.length][];
        for (int i = 0; i < like.length; i++) {
            z[i] = new int[like[i].length];
        }
        return z;
    }

    /** Every rank's {sources, recvTags, destinations, sendTags} of a Cartesian grid, from coordinates computed here. */
    static int[][][] cart(int[] dims, boolean[] periods) {
        int[][][] m = new int[4][size][];
        for (int r = 0; r < size; r++) {
            int[] c = new int[dims.length];
            for (int k = dims.length - 1, rest = r; k >= 0; k--) {
                c[k] = rest % dims[k];
                rest /= dims[k];
            }
            int[] n = new int[2 * dims.length];
            int[] rt = new int[n.length];
            int[] st = new int[n.length];
            for (int k = 0; k < dims.length; k++) {
                for (int side = 0; side < 2; side++) {
                    int slot = 2 * k + side;
                    int[] at = c.clone();
                    at[k] += side == 0 ? -1 : 1;
                    rt[slot] = slot;
                    st[slot] = slot ^ 1;
                    if (!periods[k] && (at[k] < 0 || at[k] >= dims[k])) {
                        n[slot] = MPI.PROC_NULL;
                        continue;
                    }
                    at[k] = Math.floorMod(at[k], dims[k]);
                    int q = 0;
                    for (int j = 0; j < dims.length; j++) {
                        q = q * dims[j] + at[j];
                    }
                    n[slot] = q;
                }
            }
            m[0][r] = n;
            m[1][r] = rt;
            m[2][r] = n;
            m[3][r] = st;
        }
        return m;
    }

    /** The (sender, send slot) whose block lands in rank r's receive slot i; null for PROC_NULL. */
    static int[] match(int[][][] m, int r, int i) {
        int s = m[0][r][i];
        if (s == MPI.PROC_NULL) {
            return null;
        }
        int tag = m[1][r][i];
        int k = 0;
        for (int j = 0; j < i; j++) {
            if (m[0][r][j] == s && m[1][r][j] == tag) {
                k++;
            }
        }
        for (int j = 0; j < m[2][s].length; j++) {
            if (m[2][s][j] == r && m[3][s][j] == tag && k-- == 0) {
                return new int[] {s, j};
            }
        }
        throw new IllegalStateException("no send for slot " + i);
    }

    /** The eight neighbourhood collectives on {@code topo}, each checked against the model {@code m}. */
    static void exercise(String name, Comm topo, int[][][] m) throws MPIException {
        int in = m[0][rank].length;
        int out = m[2][rank].length;
        int[] mine = {rank * 100, rank * 100 + 1};
        int[] blocks = new int[2 * out];
        for (int j = 0; j < 2 * out; j++) {
            blocks[j] = rank * 100 + 10 + j;
        }
        int[] gatherWant = fill(2 * in);
        int[] allToAllWant = fill(2 * in);
        int[] vWant = fill(3 * in);   // the v-forms: one element per block, in reverse order, 3 apart
        int[] counts = new int[in];
        int[] displs = new int[in];
        for (int i = 0; i < in; i++) {
            counts[i] = 1;
            displs[i] = 3 * (in - 1 - i);
            int[] s = match(m, rank, i);
            if (s != null) {
                gatherWant[2 * i] = s[0] * 100;
                gatherWant[2 * i + 1] = s[0] * 100 + 1;
                allToAllWant[2 * i] = s[0] * 100 + 10 + 2 * s[1];
                allToAllWant[2 * i + 1] = s[0] * 100 + 10 + 2 * s[1] + 1;
                vWant[displs[i]] = s[0] * 100 + 10 + 2 * s[1];
            }
        }
        int[] sendCounts = new int[out];
        int[] sdispls = new int[out];
        for (int j = 0; j < out; j++) {
            sendCounts[j] = 1;
            sdispls[j] = 2 * j;
        }
        int[] g = fill(2 * in);
        topo.neighborAllGather(mine, 2, MPI.INT, g, 2, MPI.INT);
        check(name + " neighborAllGather", g, gatherWant);
        int[] a = fill(2 * in);
        topo.neighborAllToAll(blocks, 2, MPI.INT, a, 2, MPI.INT);
        check(name + " neighborAllToAll", a, allToAllWant);
        int[] gv = fill(3 * in);
        topo.neighborAllGatherv(mine, 1, MPI.INT, gv, counts, displs, MPI.INT);
        check(name + " neighborAllGatherv", gv, gatherVWant(m, in, displs));
        int[] av = fill(3 * in);
        topo.neighborAllToAllv(blocks, sendCounts, sdispls, MPI.INT, av, counts, displs, MPI.INT);
        check(name + " neighborAllToAllv", av, vWant);

        IntBuffer ig = direct(fill(2 * in));
        IntBuffer ia = direct(fill(2 * in));
        IntBuffer igv = IntBuffer.wrap(fill(3 * in));
        IntBuffer iav = direct(fill(3 * in));
        Request[] r = {
            topo.iNeighborAllGather(direct(mine), 2, MPI.INT, ig, 2, MPI.INT),
            topo.iNeighborAllToAll(direct(blocks), 2, MPI.INT, ia, 2, MPI.INT),
            topo.iNeighborAllGatherv(IntBuffer.wrap(mine), 1, MPI.INT, igv, counts, displs, MPI.INT),
            topo.iNeighborAllToAllv(direct(blocks), sendCounts, sdispls, MPI.INT, iav, counts, displs, MPI.INT)};
        for (int k = r.length - 1; k >= 0; k--) {
            r[k].waitFor();
        }
        check(name + " iNeighborAllGather", array(ig), gatherWant);
        check(name + " iNeighborAllToAll", array(ia), allToAllWant);
        check(name + " iNeighborAllGatherv", array(igv), gatherVWant(m, in, displs));
        check(name + " iNeighborAllToAllv", array(iav), vWant);
    }

    static int[] gatherVWant(int[][][] m, int in, int[] displs) {
        int[] want = fill(3 * in);
        for (int i = 0; i < in; i++) {
            int[] s = match(m, rank, i);
            if (s != null) {
                want[displs[i]] = s[0] * 100;
            }
        }
        return want;
    }

    static int[] fill(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    static IntBuffer direct(int[] values) {
        IntBuffer b = MPI.newIntBuffer(Math.max(1, values.length));
        b.put(0, values);
        return b;
    }

    static int[] array(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return Arrays.copyOf(a, b.capacity());
    }

    static void check(String what, int[] actual, int[] expected) {
        int[] got = actual.length > expected.length ? Arrays.copyOf(actual, expected.length) : actual;
        String g = Arrays.toString(got);
        String w = Arrays.toString(expected);
        System.out.println("rank " + rank + " " + what + " " + g + (g.equals(w) ? " ok" : " MISMATCH, expected " + w));
    }
}
