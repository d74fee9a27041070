package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ExchangeLayout;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * k-port all-reduce (decision 0112): Rabenseifner's reduce-scatter then all-gather with radix k+1 instead of 2, over
 * the rank layout of the k-port Standard Exchange all-gather ({@link ExchangeLayout}; paper 000 sec. 5.1.2, paper
 * 001 sec. 6.1.2), so every step talks to k peers at once, one per rail.
 *
 * <p>Extras (N not of the form {@code m (k+1)^D}) put their vector to their owner, the rank before them, which
 * combines {@code mine op extra's}, and get the result back at the end. Among the P owners, level l (growing, the
 * layout's digit l, radix r = k+1 or the top digit m) cuts the current window of the vector into r parts between
 * elements; a rank keeps the part of its own digit, puts part j to the peer with digit j, receives the peers'
 * partials of its part and combines all r in digit order, {@code P0 op (P1 op (... op P(r-1)))}. After the last
 * level each rank holds its final window, complete, in RECV; the all-gather retraces the levels downwards (the
 * Standard Exchange), each rank putting the window it holds to the same peers and receiving theirs into their place.
 *
 * <p>Rank order: a rank's partial before level l covers its level-l group, contiguous and ordered by digit, and the
 * extras sit right after their owners, so the combination is in rank order and any operator runs it. Each element is
 * combined once, by one rank, then only copied: every rank gets the same bits.
 *
 * <p>For N a power of k+1, {@code 2 log_{k+1} N} steps, each rank putting {@code k} parts of {@code b/(k+1)^(l+1)}
 * at once in level l: {@code T = 2 log_{k+1} N ts + 2 (N-1)/(N k) b tau + (N-1)/N b gamma}, the k-port lower bound
 * on the bytes a rank must move through its k ports (paper 000's equation (3) for the all-gather, doubled). Other N:
 * two more steps of {@code b} for the extras. With one port it sends the messages of
 * {@code allreduce.rabenseifner} (the same windows, the same fold) and costs the same; it stands after it in the
 * catalog so that selection keeps Rabenseifner there. TEMP at most {@code 2b}. Any N, k, operator.
 */
public final class KportAllreduce extends AlgorithmBase {
    public static final String ID = "allreduce.kport";
    private static final int FOLD_IN_TAG = 0;
    private static final int FOLD_OUT_TAG = 1;
    private static final int LEVEL_TAG = 2;

    public KportAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    /** A virtual rank's window (in elements) before each level: {@code [lo[l], hi[l])}, level L's the final one. */
    private record Windows(ExchangeLayout layout, long[] lo, long[] hi) {
        static Windows of(ExchangeLayout layout, long elements, int v) {
            int levels = layout.levels();
            long[] lo = new long[levels + 1];
            long[] hi = new long[levels + 1];
            hi[0] = elements;
            Windows w = new Windows(layout, lo, hi);
            for (int l = 0; l < levels; l++) {
                int d = layout.digit(v, l);
                lo[l + 1] = w.partLo(l, d);
                hi[l + 1] = lo[l + 1] + w.partLength(l, d);
            }
            return w;
        }

        /**
         * First element of part j of window l: {@code len/r} elements each, the last {@code len%r} one more (so that
         * radix 2 cuts where Rabenseifner's halving does, the lower half the smaller).
         */
        long partLo(int l, int j) {
            long len = hi[l] - lo[l];
            int r = layout.radix(l);
            return lo[l] + j * (len / r) + Math.max(0, j - (r - len % r));
        }

        long partLength(int l, int j) {
            long len = hi[l] - lo[l];
            int r = layout.radix(l);
            return len / r + (j >= r - len % r ? 1 : 0);
        }

        long length(int l) {
            return hi[l] - lo[l];
        }
    }

    private static int allgatherTag(ExchangeLayout layout, int l) {
        return LEVEL_TAG + layout.levels() + l;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return p.build();
        }
        ExchangeLayout layout = new ExchangeLayout(n, shape.ports());
        int v = layout.virtualOf(rank);
        if (!layout.isOwner(rank)) {
            p.put(layout.owner(v), Buffer.SEND, 0, b, FOLD_IN_TAG);
            p.recv(layout.owner(v), FOLD_OUT_TAG, Buffer.RECV, 0, b);
            return p.build();
        }
        int extra = layout.extraOf(rank);
        // cur holds the current window; curBase is where its first element lies.
        Buffer cur = Buffer.SEND;
        long curBase = 0;
        if (extra >= 0) {
            curBase = p.allocateTemp(b);
            cur = Buffer.TEMP;
            p.recv(extra, FOLD_IN_TAG, Buffer.TEMP, curBase, b);
            p.reduce(Buffer.SEND, 0, Buffer.TEMP, curBase, b); // mine op the extra's
        }
        Windows w = Windows.of(layout, shape.elements(), v);
        int levels = layout.levels();
        for (int l = 0; l < levels; l++) {
            int r = layout.radix(l);
            int d = layout.digit(v, l);
            int[] peers = layout.peers(v, l);
            int tag = LEVEL_TAG + l;
            for (int peer : peers) {
                int j = layout.digit(peer, l);
                p.put(layout.owner(peer), cur, curBase + (w.partLo(l, j) - w.lo[l]) * e, w.partLength(l, j) * e, tag);
            }
            boolean last = l == levels - 1;
            long keepBytes = w.length(l + 1) * e;
            long mineAt = curBase + (w.lo[l + 1] - w.lo[l]) * e;
            // The combination lands where the highest digit's partial is: received there, or my own range.
            Buffer dst;
            long dstOff;
            if (d == r - 1 && !last && cur == Buffer.TEMP) {
                dst = cur;
                dstOff = mineAt;
            } else {
                dst = last ? Buffer.RECV : Buffer.TEMP;
                dstOff = last ? w.lo[l + 1] * e : p.allocateTemp(keepBytes);
            }
            long[] received = new long[r];
            for (int peer : peers) {
                int j = layout.digit(peer, l);
                Buffer into = j == r - 1 ? dst : Buffer.TEMP;
                received[j] = j == r - 1 ? dstOff : p.allocateTemp(keepBytes);
                p.recv(layout.owner(peer), tag, into, received[j], keepBytes);
            }
            if (d == r - 1 && (dst != cur || dstOff != mineAt)) {
                p.copy(cur, mineAt, dst, dstOff, keepBytes);
            }
            for (int j = r - 2; j >= 0; j--) {
                if (j == d) {
                    p.reduce(cur, mineAt, dst, dstOff, keepBytes);
                } else {
                    p.reduce(Buffer.TEMP, received[j], dst, dstOff, keepBytes);
                }
            }
            cur = dst;
            curBase = dstOff;
        }
        // All-gather (the Standard Exchange run downwards): my window to each peer, theirs into their place.
        for (int l = levels - 1; l >= 0; l--) {
            int tag = allgatherTag(layout, l);
            int[] peers = layout.peers(v, l);
            for (int peer : peers) {
                p.put(layout.owner(peer), Buffer.RECV, w.lo[l + 1] * e, w.length(l + 1) * e, tag);
            }
            for (int peer : peers) {
                int j = layout.digit(peer, l);
                p.recv(layout.owner(peer), tag, Buffer.RECV, w.partLo(l, j) * e, w.partLength(l, j) * e);
            }
        }
        if (extra >= 0) {
            p.put(extra, Buffer.RECV, 0, b, FOLD_OUT_TAG);
        }
        return p.build();
    }

    /** The design as {@link Traffic}: fold, the levels upwards with their parts, downwards with windows, unfold. */
    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        long e = shape.elementBytes();
        Traffic t = new Traffic(n);
        if (n > 1) {
            ExchangeLayout layout = new ExchangeLayout(n, shape.ports());
            for (int rank = 0; rank < n; rank++) {
                int v = layout.virtualOf(rank);
                if (!layout.isOwner(rank)) {
                    t.send(rank, layout.owner(v), FOLD_IN_TAG, b).receive(rank, layout.owner(v), FOLD_OUT_TAG);
                    continue;
                }
                int extra = layout.extraOf(rank);
                if (extra >= 0) {
                    t.receive(rank, extra, FOLD_IN_TAG);
                }
                Windows w = Windows.of(layout, shape.elements(), v);
                for (int l = 0; l < layout.levels(); l++) {
                    for (int peer : layout.peers(v, l)) {
                        t.send(rank, layout.owner(peer), LEVEL_TAG + l, w.partLength(l, layout.digit(peer, l)) * e);
                    }
                    for (int peer : layout.peers(v, l)) {
                        t.receive(rank, layout.owner(peer), LEVEL_TAG + l);
                    }
                }
                for (int l = layout.levels() - 1; l >= 0; l--) {
                    for (int peer : layout.peers(v, l)) {
                        t.send(rank, layout.owner(peer), allgatherTag(layout, l), w.length(l + 1) * e);
                    }
                    for (int peer : layout.peers(v, l)) {
                        t.receive(rank, layout.owner(peer), allgatherTag(layout, l));
                    }
                }
                if (extra >= 0) {
                    t.send(rank, extra, FOLD_OUT_TAG, b);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "2 log_{k+1} N ts + 2 (N-1)/(N k) b*tau + (N-1)/N b*gamma"
                + " for N = (k+1)^D; + 2 (ts + b*tau) + b*gamma when N != m (k+1)^D");
    }

    @Override
    public String summary() {
        return "radix-(k+1) reduce-scatter then Standard Exchange all-gather, k peers per step, extras folded; "
                + "2 log_{k+1} N ts + 2(N-1)/(Nk) b tau; rank order; any N, k; paper 000 sec. 5.1.2 with Rabenseifner";
    }
}
