package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * What the Direct algorithms of paper 000 section 5.1 share (gather 5.1.1, all-gather 5.1.2, all-to-all 5.1.3):
 * every message is one block put straight into its final RECV slot, and a rank takes k messages per step, so they
 * all finish after {@code ceil((N-1)/k)} steps of one block, equation (2): {@code T = ceil((N-1)/k) (ts + b tau)}.
 * The all-gather and the all-to-all also share the exchange itself: rank p puts to {@code p+1, p+2, ...} and
 * receives from {@code p-1, p-2, ...} (mod N), so in step i the k ranks that reach p are the k it waits for.
 * Stateless.
 */
public final class DirectPattern {
    private DirectPattern() {
    }

    /**
     * {@code rank}'s program of the Direct exchange: it copies its own block into RECV slot {@code rank}, puts one
     * block into RECV slot {@code rank} of each of ranks {@code rank+1 .. rank+N-1} (mod N) in that order, and
     * receives one block from each of ranks {@code rank-1 .. rank-(N-1)} into their slots. The block for rank q is
     * SEND block q when {@code personalised} (all-to-all), else the one SEND block (all-gather).
     */
    public static RankProgram exchange(Shape shape, int rank, boolean personalised, int tag) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, personalised ? rank * b : 0, Buffer.RECV, rank * b, b);
        for (int i = 1; i < n; i++) {
            int to = (rank + i) % n;
            p.put(to, Buffer.SEND, personalised ? to * b : 0, b, tag);
        }
        for (int i = 1; i < n; i++) {
            int from = Math.floorMod(rank - i, n);
            p.recv(from, tag, Buffer.RECV, from * b, b);
        }
        return p.build();
    }

    /** The cost of {@link #exchange}: N-1 blocks from every rank to every other, by equation (2). */
    public static CostTerms exchangeCost(Shape shape) {
        int n = shape.size();
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < n; r++) {
            for (int i = 1; i < n; i++) {
                tally.message(r, (r + i) % n, shape.blockBytes());
            }
        }
        return cost(shape, tally);
    }

    /** Equation (2) for {@code shape}, with the bytes per link class of the messages in {@code tally}. */
    public static CostTerms cost(Shape shape, LinkTally tally) {
        int steps = (int) Radix.ceilDiv(shape.size() - 1, shape.ports());
        return tally.toCost(steps, steps * shape.blockBytes(), "ceil((N-1)/k) * (ts + b*tau)  [paper 000 eq. (2)]");
    }
}
