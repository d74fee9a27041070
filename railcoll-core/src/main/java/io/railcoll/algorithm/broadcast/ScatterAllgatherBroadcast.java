package io.railcoll.algorithm.broadcast;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Scatter-allgather broadcast for long messages (van de Geijn; MPICH's long-message broadcast): the message is cut
 * into N chunks, chunk v for relative rank v ({@code v = rank - root mod N}); sizes differ by at most one byte,
 * {@code floor(b/N)} or {@code ceil(b/N)}, and are empty when {@code b < N}.
 *
 * <ol>
 *   <li>Scatter down the {@link KnomialTree}: each rank receives its subtree's chunks (contiguous bytes) into TEMP,
 *       forwards its children's ranges from there and copies its own chunk to RECV; a leaf receives its chunk
 *       straight into RECV.</li>
 *   <li>Pipeline along the relative chain {@code 0 -> 1 -> ... -> N-1}: rank v puts its own chunk to v+1, then
 *       forwards each chunk it receives from v-1 except the last one (chunk v+1, which v+1 has). The root, which
 *       has everything, sends chunks {@code 0, N-1, N-2, .., 2} without waiting, and receives nothing, so its RECV,
 *       the source, is never written.</li>
 * </ol>
 * Scatter chunks live in TEMP so that chain chunks, written to RECV, never land on a range an outstanding scatter
 * put still reads.
 *
 * <pre>
 *   N = 4, chain phase: chunks each relative rank puts to the next, in order
 *   0 -> 1    0, 3, 2          (the root has them all)
 *   1 -> 2    1, 0, 3          (its own, then what 0 sent, except chunk 2)
 *   2 -> 3    2, 1, 0
 * </pre>
 *
 * <p>Bytes: a rank receives about {@code 2 b (N-1)/N} (its subtree once, then the other chunks), the root sends
 * about {@code 2 b}. The pipeline and the scatter overlap, so the step count has no short closed form: the cost
 * states it by running the design's message pattern ({@code ceil(log_{k+1} N) + N - 1} steps when k = 1 and the
 * scatter is not the bottleneck). Any N, k, root and b, including b not divisible by N and b < N.
 */
public final class ScatterAllgatherBroadcast extends AlgorithmBase {
    public static final String ID = "broadcast.scatter-allgather";
    private static final int SCATTER_TAG = 0;
    private static final int CHAIN_TAG = 1;

    public ScatterAllgatherBroadcast() {
        super(ID, Collective.BROADCAST);
    }

    /** Byte offset of chunk v: {@code v floor(b/N) + min(v, b mod N)}; chunk N's offset is b. */
    private static long offset(long b, int n, int v) {
        return v * (b / n) + Math.min(v, b % n);
    }

    private static long chunkBytes(long b, int n, int v) {
        return offset(b, n, v + 1) - offset(b, n, v);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        int v = tree.relative(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (v == 0) {
            for (int c : tree.childrenTopDown(0)) {
                long start = offset(b, n, c);
                p.put(tree.rank(c), Buffer.RECV, start, offset(b, n, c + tree.subtreeSize(c)) - start, SCATTER_TAG);
            }
        } else {
            int parent = tree.rank(tree.parent(v));
            long start = offset(b, n, v);
            long subtreeBytes = offset(b, n, v + tree.subtreeSize(v)) - start;
            if (tree.childrenTopDown(v).isEmpty()) {
                p.recv(parent, SCATTER_TAG, Buffer.RECV, start, subtreeBytes);
            } else {
                long temp = p.allocateTemp(subtreeBytes);
                p.recv(parent, SCATTER_TAG, Buffer.TEMP, temp, subtreeBytes);
                for (int c : tree.childrenTopDown(v)) {
                    long childStart = offset(b, n, c);
                    long childBytes = offset(b, n, c + tree.subtreeSize(c)) - childStart;
                    p.put(tree.rank(c), Buffer.TEMP, temp + childStart - start, childBytes, SCATTER_TAG);
                }
                p.copy(Buffer.TEMP, temp, Buffer.RECV, start, chunkBytes(b, n, v));
            }
        }
        int right = v + 1 < n ? tree.rank(v + 1) : -1;
        if (v == 0) {
            for (int j = 1; j < n; j++) {
                int chunk = Math.floorMod(1 - j, n);
                p.put(right, Buffer.RECV, offset(b, n, chunk), chunkBytes(b, n, chunk), CHAIN_TAG + j);
            }
            return p.build();
        }
        int left = tree.rank(v - 1);
        if (right >= 0) {
            p.put(right, Buffer.RECV, offset(b, n, v), chunkBytes(b, n, v), CHAIN_TAG + 1);
        }
        for (int j = 1; j < n; j++) {
            int chunk = Math.floorMod(v - j, n);
            p.recv(left, CHAIN_TAG + j, Buffer.RECV, offset(b, n, chunk), chunkBytes(b, n, chunk));
            if (right >= 0 && j < n - 1) {
                p.put(right, Buffer.RECV, offset(b, n, chunk), chunkBytes(b, n, chunk), CHAIN_TAG + j + 1);
            }
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        // The design's messages in each rank's order; the critical path of the overlapping phases comes from them.
        Traffic traffic = new Traffic(n);
        for (int v = 0; v < n; v++) {
            int rank = tree.rank(v);
            if (v > 0) {
                traffic.receive(rank, tree.rank(tree.parent(v)), SCATTER_TAG);
            }
            for (int c : tree.childrenTopDown(v)) {
                traffic.send(rank, tree.rank(c), SCATTER_TAG,
                        offset(b, n, c + tree.subtreeSize(c)) - offset(b, n, c));
            }
            int right = v + 1 < n ? tree.rank(v + 1) : -1;
            for (int j = 1; j < n; j++) {
                if (v == 0) {
                    traffic.send(rank, right, CHAIN_TAG + j, chunkBytes(b, n, Math.floorMod(1 - j, n)));
                    continue;
                }
                if (j == 1 && right >= 0) {
                    traffic.send(rank, right, CHAIN_TAG + 1, chunkBytes(b, n, v));
                }
                traffic.receive(rank, tree.rank(v - 1), CHAIN_TAG + j);
                if (right >= 0 && j < n - 1) {
                    traffic.send(rank, right, CHAIN_TAG + j + 1, chunkBytes(b, n, Math.floorMod(v - j, n)));
                }
            }
        }
        return traffic.cost(shape.placement(), shape.ports(), "k-nomial scatter of N chunks, then a chain pipeline "
                + "of N-1 chunks; about (log_{k+1} N + N-1)*ts + 2*(N-1)/N*b*tau");
    }

    @Override
    public String summary() {
        return "k-nomial scatter of N chunks, then a chain pipeline from the root; about (log_{k+1} N + N-1)*ts + "
                + "2(N-1)/N*b*tau; any N, k, root, b; van de Geijn / MPICH long-message broadcast";
    }
}
