package io.railcoll.algorithm.deterministic;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * The reductions in a fixed order ({@code allreduce.deterministic}, {@code reduce.deterministic},
 * {@code reduce-scatter.deterministic}, {@code scan.deterministic}, {@code exscan.deterministic}; decision 0091).
 * The vector is cut into N blocks at element boundaries (reduce-scatter: the blocks the call names), rank j owning
 * block j. Every rank puts its block j to rank j (an all-to-all of blocks); the owner combines the N contributions
 * strictly left to right, {@code P0 = s0, Pi = P(i-1) op si}, so every element of the result is the left fold over
 * ranks 0..N-1 that a sequential loop computes, whatever N's factors, the nodes, the rails or k. Then:
 * <ul>
 *   <li>all-reduce: the owner puts {@code P(N-1)} of its block to every rank (an all-gather); every rank has the
 *       owner's bits;</li>
 *   <li>reduce: the owners put {@code P(N-1)} to the root (a gather);</li>
 *   <li>reduce-scatter: {@code P(N-1)} is the owner's result;</li>
 *   <li>scan: the fold passes through every prefix; {@code Pi} of each block goes to rank i;</li>
 *   <li>exscan: {@code P(i-1)} goes to rank i; rank N-1's data is never needed, so it sends none.</li>
 * </ul>
 *
 * <p>Cost (b the vector's bytes; reduce-scatter: N b sent per rank in the first phase): two phases of N-1 messages
 * per rank, each carrying {@code (N-1)/N b}: {@code T = 2 (N-1) ts + 2 (N-1)/N b tau + (N-1)/N b gamma} for
 * all-reduce, against Rabenseifner's {@code 2 log2 N ts} and the same bytes and combining: the price of the order is
 * latency, not bandwidth. With k ports a phase's messages go k at a time. TEMP: N blocks of {@code b/N}. Any N,
 * any operator, commutative or not.
 */
public final class RankOrderReduction extends AlgorithmBase {
    /** The first phase: every rank's block j to its owner. */
    private static final int TO_OWNER = 0;
    /** The second phase: results from the owners. */
    private static final int FROM_OWNER = 1;

    private RankOrderReduction(Collective collective) {
        super(idFor(collective), collective);
    }

    /** The id of the deterministic algorithm of {@code collective}: {@code <collective>.deterministic}. */
    public static String idFor(Collective collective) {
        return collective.id() + ".deterministic";
    }

    public static RankOrderReduction allreduce() {
        return new RankOrderReduction(Collective.ALLREDUCE);
    }

    public static RankOrderReduction reduce() {
        return new RankOrderReduction(Collective.REDUCE);
    }

    public static RankOrderReduction reduceScatter() {
        return new RankOrderReduction(Collective.REDUCE_SCATTER);
    }

    public static RankOrderReduction scan() {
        return new RankOrderReduction(Collective.SCAN);
    }

    public static RankOrderReduction exscan() {
        return new RankOrderReduction(Collective.EXSCAN);
    }

    @Override
    public boolean deterministic() {
        return true;
    }

    /** Where block j starts: in SEND, and in RECV except for reduce-scatter, whose RECV is the owner's block alone. */
    private static long start(Shape shape, int j) {
        if (shape.collective() == Collective.REDUCE_SCATTER) {
            return j * shape.blockBytes();
        }
        long e = shape.elements();
        int n = shape.size();
        // floor(e * j / n) without overflow
        return (e / n * j + e % n * j / n) * shape.elementBytes();
    }

    private static long length(Shape shape, int j) {
        return start(shape, j + 1) - start(shape, j);
    }

    /** The ranks whose data the fold needs: all, but for exscan, whose last rank's data no result includes. */
    private static int contributors(Shape shape) {
        return shape.collective() == Collective.EXSCAN ? shape.size() - 1 : shape.size();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        Collective c = shape.collective();
        ProgramBuilder p = new ProgramBuilder(rank);
        int folded = contributors(shape);
        if (rank < folded) {
            for (int d = 1; d < n; d++) {
                int owner = (rank + d) % n;
                p.put(owner, Buffer.SEND, start(shape, owner), length(shape, owner), TO_OWNER);
            }
        }
        long own = length(shape, rank);
        long mine = c == Collective.REDUCE_SCATTER ? 0 : start(shape, rank);
        long temp = p.allocateTemp(folded * own);
        for (int i = 0; i < folded; i++) {
            long prefix = temp + i * own;
            if (i == rank) {
                p.copy(Buffer.SEND, start(shape, rank), Buffer.TEMP, prefix, own);
            } else {
                p.recv(i, TO_OWNER, Buffer.TEMP, prefix, own);
            }
            if (i > 0) {
                p.reduce(Buffer.TEMP, prefix - own, Buffer.TEMP, prefix, own); // P(i) = P(i-1) op s(i)
            }
            int to = c == Collective.SCAN ? i : c == Collective.EXSCAN ? i + 1 : -1;
            if (to == rank) {
                p.copy(Buffer.TEMP, prefix, Buffer.RECV, mine, own);
            } else if (to >= 0) {
                p.put(to, Buffer.TEMP, prefix, own, FROM_OWNER);
            }
        }
        long result = temp + (folded - 1) * own;
        switch (c) {
            case ALLREDUCE -> {
                p.copy(Buffer.TEMP, result, Buffer.RECV, mine, own);
                for (int d = 1; d < n; d++) {
                    p.put((rank + d) % n, Buffer.TEMP, result, own, FROM_OWNER);
                }
                receiveBlocks(p, shape, rank);
            }
            case REDUCE -> {
                if (rank == shape.root()) {
                    p.copy(Buffer.TEMP, result, Buffer.RECV, mine, own);
                    receiveBlocks(p, shape, rank);
                } else {
                    p.put(shape.root(), Buffer.TEMP, result, own, FROM_OWNER);
                }
            }
            case REDUCE_SCATTER -> p.copy(Buffer.TEMP, result, Buffer.RECV, 0, own);
            case SCAN -> receiveBlocks(p, shape, rank);
            case EXSCAN -> {
                if (rank > 0) {
                    receiveBlocks(p, shape, rank);
                }
            }
            default -> throw new IllegalStateException(id() + " has no program for " + c.id());
        }
        return p.build();
    }

    /** Every other owner's block of the result, into RECV where the block lies in the vector. */
    private static void receiveBlocks(ProgramBuilder p, Shape shape, int rank) {
        for (int d = 1; d < shape.size(); d++) {
            int owner = (rank - d + shape.size()) % shape.size();
            p.recv(owner, FROM_OWNER, Buffer.RECV, start(shape, owner), length(shape, owner));
        }
    }

    /**
     * The design as {@link Traffic}, in each program's order: blocks out to their owners, the owner's receives in
     * rank order (a scan's prefixes leaving as the fold passes them), then the results out and in.
     */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        Collective c = shape.collective();
        int folded = contributors(shape);
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            long own = length(shape, r);
            for (int d = 1; d < n && r < folded; d++) {
                t.send(r, (r + d) % n, TO_OWNER, length(shape, (r + d) % n));
            }
            for (int i = 0; i < folded; i++) {
                if (i != r) {
                    t.receive(r, i, TO_OWNER);
                }
                int to = c == Collective.SCAN ? i : c == Collective.EXSCAN ? i + 1 : -1;
                if (to >= 0 && to != r) {
                    t.send(r, to, FROM_OWNER, own);
                }
            }
            boolean sendsAll = c == Collective.ALLREDUCE;
            boolean receivesAll = c == Collective.ALLREDUCE || c == Collective.SCAN
                    || c == Collective.EXSCAN && r > 0 || c == Collective.REDUCE && r == shape.root();
            if (c == Collective.REDUCE && r != shape.root()) {
                t.send(r, shape.root(), FROM_OWNER, own);
            }
            for (int d = 1; d < n && sendsAll; d++) {
                t.send(r, (r + d) % n, FROM_OWNER, own);
            }
            for (int d = 1; d < n && receivesAll; d++) {
                t.receive(r, (r - d + n) % n, FROM_OWNER);
            }
        }
        return t.cost(shape.placement(), shape.ports(), c == Collective.REDUCE_SCATTER
                ? "(N-1) ts + (N-1) b*tau + (N-1) b*gamma"
                : "2 (N-1) ts + 2 (N-1)/N b*tau + (N-1)/N b*gamma (reduce: the root receives (N-1)/N b)");
    }

    @Override
    public String summary() {
        return "blocks to their owners (all-to-all), each combined in rank order 0..N-1, results out; the same bits "
                + "for any placement, rails or k; 2 (N-1) ts + 2 (N-1)/N b tau; any N, any operator; decision 0091";
    }
}
