package io.railcoll.algorithm.alltoall;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Pairwise exchange all-to-all, what Quadrics' {@code elan_alltoall()} uses up to 8 KB (paper 000 section 3.1): in
 * step s rank p puts its block for {@code p+s} and waits for the block from {@code p-s} before the next step, so
 * every rank talks to one partner at a time and no receiver is a hot spot.
 *
 * <p>Single-port by design: {@code N-1} dependent steps of one block, {@code T = (N-1)(ts + b tau)} whatever k is;
 * the engine stripes each block over the rails instead. Each rank sends and receives {@code (N-1) b}. Blocks land
 * in their final place; no TEMP. Any N (shift pairing, {@code p +- s}, rather than XOR, so N need not be a power
 * of two).
 */
public final class PairwiseAlltoall extends AlgorithmBase {
    public static final String ID = "alltoall.pairwise";

    public PairwiseAlltoall() {
        super(ID, Collective.ALLTOALL);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, rank * b, Buffer.RECV, rank * b, b);
        for (int s = 1; s < n; s++) {
            int to = (rank + s) % n;
            int from = Math.floorMod(rank - s, n);
            p.put(to, Buffer.SEND, to * b, b, s);
            p.recv(from, s, Buffer.RECV, from * b, b);
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < n; r++) {
            for (int s = 1; s < n; s++) {
                tally.message(r, (r + s) % n, b);
            }
        }
        return tally.toCost(n - 1, (n - 1) * b, "(N-1) * (ts + b*tau), single-port");
    }

    @Override
    public String summary() {
        return "one partner per step, p+s and p-s; (N-1)*(ts + b*tau), single-port; any N; "
                + "paper 000 sec. 3.1 (elan_alltoall up to 8 KB)";
    }
}
