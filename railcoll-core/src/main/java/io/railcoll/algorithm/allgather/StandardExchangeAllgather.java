package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ExchangeLayout;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.StandardExchange;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * k-port Standard Exchange all-gather (paper 000 section 5.1.2, paper 001 section 6.1.2): recursive doubling
 * extended to recursive multiplying by k+1.
 *
 * <p>For N a power of k+1: at level l a rank puts everything it has (its level-l group's blocks, contiguous in
 * RECV) to the k ranks that differ from it only in base-(k+1) digit l, and receives theirs straight into their
 * final place in RECV; it then has {@code (k+1)^(l+1)} blocks. Steps {@code log_{k+1} N}, messages
 * {@code (k+1)^l} blocks: equation (3), {@code T = log_{k+1} N ts + (N-1)/k b tau}.
 *
 * <p>Other N: the paper says correction steps are needed but not which; here they are the fold of
 * {@link ExchangeLayout}. Extras put their block to their owner (one step), the P owners run the exchange with a
 * mixed radix top digit, and each owner puts the whole {@code N b} result to its extra (one step): at most
 * {@code levels + 2 <= floor(log_{k+1} N) + 3} steps (fewer when the paths through the extras are not the
 * longest), and for {@code N = m (k+1)^D} just {@code D + 1} with no correction at all. The paper's equation (4)
 * charges {@code (k+1) floor(log_{k+1} N)} steps instead, more than here except for k = 1, N = 3 (3 steps, not 2).
 *
 * <pre>
 *   N = 9, k = 2 (no extras): RECV blocks held by rank 4 (virtual 4 = 11 in base 3)
 *   start     {4}
 *   level 0   {3,4,5}             from 3 and 5: its group of digit-1 = 1
 *   level 1   {0..8}              from 1 (holding 0-2) and 7 (holding 6-8)
 * </pre>
 *
 * <p>Steps and beta bytes: the longest paths through the exchange, which the cost states by running the design's
 * message pattern ({@link StandardExchange#cost}, shared with the all-to-all; sizes from the group arithmetic,
 * not from the programs) through the {@link Traffic} model; for powers of k+1 they are equation (3). Bytes per
 * rank: an owner sends its group's blocks to each peer at each level, plus {@code N b} to its extra. No TEMP: everything lands in its final place.
 */
public final class StandardExchangeAllgather extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgather.standard-exchange";

    public StandardExchangeAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ExchangeLayout layout = new ExchangeLayout(n, shape.ports());
        if (!layout.isOwner(rank)) {
            return StandardExchange.extra(layout, rank, b, b);
        }
        int v = layout.virtualOf(rank);
        int extra = layout.extraOf(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
        if (extra >= 0) {
            p.recv(extra, StandardExchange.FOLD_IN_TAG, Buffer.RECV, extra * b, b);
        }
        for (int l = 0; l < layout.levels(); l++) {
            long start = layout.groupRankStart(v, l);
            long end = layout.groupRankEnd(v, l);
            int tag = StandardExchange.LEVEL_TAG + l;
            for (int peer : layout.peers(v, l)) {
                p.put(layout.owner(peer), Buffer.RECV, start * b, (end - start) * b, tag);
            }
            for (int peer : layout.peers(v, l)) {
                long peerStart = layout.groupRankStart(peer, l);
                long peerEnd = layout.groupRankEnd(peer, l);
                p.recv(layout.owner(peer), tag, Buffer.RECV, peerStart * b, (peerEnd - peerStart) * b);
            }
        }
        if (extra >= 0) {
            p.put(extra, Buffer.RECV, 0, n * b, StandardExchange.FOLD_OUT_TAG);
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        long b = shape.blockBytes();
        ExchangeLayout layout = new ExchangeLayout(shape.size(), shape.ports());
        // The design's messages, sizes from the group arithmetic: an owner sends its level-l group's blocks.
        return StandardExchange.cost(shape, layout, b,
                (v, l, peer) -> (layout.groupRankEnd(v, l) - layout.groupRankStart(v, l)) * b,
                "log_{k+1} N*ts + (N-1)/k*b*tau for N=(k+1)^L [paper 000 eq. (3)]; other N: at most levels+2 "
                        + "steps, fold-in of one block and fold-out of N blocks");
    }

    @Override
    public String summary() {
        return "k-port recursive multiplying, fold correction for N not m*(k+1)^D; log_{k+1} N*ts + (N-1)/k*b*tau "
                + "for N=(k+1)^L; any N, k; paper 000 sec. 5.1.2 eq. (3), paper 001 sec. 6.1.2";
    }
}
