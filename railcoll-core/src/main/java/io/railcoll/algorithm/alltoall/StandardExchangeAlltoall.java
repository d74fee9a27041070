package io.railcoll.algorithm.alltoall;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.BlockLocations;
import io.railcoll.algorithm.ExchangeLayout;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.StandardExchange;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

import java.util.ArrayList;
import java.util.List;

/**
 * k-port Standard Exchange all-to-all (paper 000 section 5.1.3): the grouping of the Standard Exchange all-gather,
 * but at each level a rank forwards only the blocks whose destination lies on the peer's side.
 *
 * <p>Invariant, for virtual rank c before level l: it holds the blocks {@code (src, dst)} whose source is in its
 * level-l group (agrees with c on digits l and up) and whose destination agrees with c on digits below l. At
 * level l it puts to the peer with digit l = d the blocks whose destination has digit l = d. After the last level
 * c holds exactly the blocks for itself (and its extra), from every source.
 *
 * <pre>
 *   N = 4, k = 1, rank 1 (virtual 01): blocks as src>dst
 *   start     1>0 1>1 1>2 1>3
 *   level 0   to 0: 1>0 1>2      from 0: 0>1 0>3      holds 0>1 1>1 0>3 1>3
 *   level 1   to 3: 0>3 1>3      from 3: 2>1 3>1      holds 0>1 1>1 2>1 3>1
 * </pre>
 *
 * <p>For N a power of k+1: {@code log_{k+1} N} steps of {@code N/(k+1)} blocks per message, equation (5),
 * {@code T = log_{k+1} N ts + N/(k+1) log_{k+1} N b tau}. Other N use the fold of {@link ExchangeLayout}: extras
 * put their whole SEND ({@code N b}) to their owner first and receive their {@code N} blocks last, at most two
 * more steps; messages then carry varying numbers of blocks. Steps and beta bytes are the longest paths through
 * the design's message pattern, which the cost states from the layout's arithmetic via {@link Traffic}
 * ({@link StandardExchange#cost}, shared with the all-gather, as are the tags and the extras' program).
 *
 * <p>Buffers: blocks to a peer are rarely contiguous, so each message is packed into a fresh TEMP region and
 * lands in another; the last level lands straight in RECV when its blocks are this rank's and contiguous (always,
 * without extras). TEMP is {@code O(N log_{k+1} N) b}. Any N and k.
 */
public final class StandardExchangeAlltoall extends AlgorithmBase {
    public static final String ID = "alltoall.standard-exchange";

    public StandardExchangeAlltoall() {
        super(ID, Collective.ALLTOALL);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ExchangeLayout layout = new ExchangeLayout(n, shape.ports());
        if (!layout.isOwner(rank)) {
            return StandardExchange.extra(layout, rank, n * b, b);
        }
        int v = layout.virtualOf(rank);
        int extra = layout.extraOf(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        BlockLocations blocks = new BlockLocations(b);
        for (int dst = 0; dst < n; dst++) {
            blocks.place(block(n, rank, dst), Buffer.SEND, dst * b);
        }
        if (extra >= 0) {
            long pre = p.allocateTemp(n * b);
            p.recv(extra, StandardExchange.FOLD_IN_TAG, Buffer.TEMP, pre, n * b);
            for (int dst = 0; dst < n; dst++) {
                blocks.place(block(n, extra, dst), Buffer.TEMP, pre + dst * b);
            }
        }
        for (int l = 0; l < layout.levels(); l++) {
            int mine = layout.digit(v, l);
            int tag = StandardExchange.LEVEL_TAG + l;
            for (int peer : layout.peers(v, l)) {
                blocks.put(p, layout.owner(peer), message(layout, v, l, layout.digit(peer, l)), tag);
            }
            boolean last = l == layout.levels() - 1;
            for (int peer : layout.peers(v, l)) {
                List<Long> incoming = message(layout, peer, l, mine);
                long firstSource = layout.groupRankStart(peer, l);
                if (last && extra < 0) {
                    // Without an extra the last level brings this rank's blocks from consecutive sources.
                    blocks.receive(p, layout.owner(peer), tag, incoming, Buffer.RECV, firstSource * b);
                } else {
                    blocks.receiveIntoTemp(p, layout.owner(peer), tag, incoming);
                }
            }
        }
        for (int src = 0; src < n; src++) {
            blocks.copyTo(p, block(n, src, rank), Buffer.RECV, src * b);
        }
        if (extra >= 0) {
            List<Long> forExtra = new ArrayList<>(n);
            for (int src = 0; src < n; src++) {
                forExtra.add(block(n, src, extra));
            }
            blocks.put(p, extra, forExtra, StandardExchange.FOLD_OUT_TAG);
        }
        return p.build();
    }

    private static long block(int n, int src, int dst) {
        return (long) src * n + dst;
    }

    /**
     * The blocks virtual rank c sends at level l to its peer with digit l = d, in order: sources ascending over
     * c's level-l group, then destinations ascending over the virtual ranks that agree with c below l and have
     * digit l = d.
     */
    private static List<Long> message(ExchangeLayout layout, int c, int l, int d) {
        int n = layout.size();
        List<Long> out = new ArrayList<>();
        int stride = layout.groupSize(l + 1);
        int low = c % layout.groupSize(l) + d * layout.groupSize(l);
        for (int src = layout.groupRankStart(c, l); src < layout.groupRankEnd(c, l); src++) {
            for (int w = low; w < layout.virtualSize(); w += stride) {
                for (int dst = layout.segmentStart(w); dst < layout.segmentStart(w + 1); dst++) {
                    out.add(block(n, src, dst));
                }
            }
        }
        return out;
    }

    /** Number of blocks in {@link #message}, from the segment sizes alone. */
    private static long messageBlocks(ExchangeLayout layout, int c, int l, int d) {
        long destinations = 0;
        int stride = layout.groupSize(l + 1);
        for (int w = c % layout.groupSize(l) + d * layout.groupSize(l); w < layout.virtualSize(); w += stride) {
            destinations += layout.segmentSize(w);
        }
        return (layout.groupRankEnd(c, l) - layout.groupRankStart(c, l)) * destinations;
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        ExchangeLayout layout = new ExchangeLayout(n, shape.ports());
        return StandardExchange.cost(shape, layout, n * b,
                (v, l, peer) -> messageBlocks(layout, v, l, layout.digit(peer, l)) * b,
                "log_{k+1} N*ts + N/(k+1)*log_{k+1} N*b*tau for N=(k+1)^L [paper 000 eq. (5)]; other N: at most "
                        + "levels+2 steps, fold-in and fold-out of N blocks");
    }

    @Override
    public String summary() {
        return "k-port recursive multiplying, forwarding the blocks for the peer's side, fold correction for other N; "
                + "log_{k+1} N*ts + N/(k+1)*log_{k+1} N*b*tau for N=(k+1)^L; any N, k; paper 000 sec. 5.1.3 eq. (5)";
    }
}
