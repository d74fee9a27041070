package io.railcoll.algorithm.reducescatter;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;
import java.util.function.IntToLongFunction;

/**
 * Ring reduce-scatter with equal blocks (the first half of the ring all-reduce, Patarasuk and Yuan 2009): in step s
 * (0..N-2) rank r passes its partial of block {@code r-s-1} to the right and combines its own SEND block
 * {@code r-s-2} into the partial arriving from the left, so block r is complete on rank r after N-1 steps; the last
 * one lands straight in RECV.
 *
 * <p>Each block is combined along the ring starting at rank {@code j+1}, not in rank order, so a non-commutative
 * operator cannot use it (such a shape is refused). Each rank sends and receives {@code (N-1) b} to and from its
 * ring neighbours only: bandwidth-optimal, {@code T = (N-1)(ts + b tau) + (N-1) b gamma}, whatever k. TEMP: N-2
 * blocks. Any N.
 */
public final class RingReduceScatter extends AlgorithmBase {
    public static final String ID = "reduce-scatter.ring";

    public RingReduceScatter() {
        super(ID, Collective.REDUCE_SCATTER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return ringOrderRestriction(shape, "block");
    }

    /**
     * Why a ring cannot combine {@code shape}: it combines {@code unit} j starting at rank j+1, so only a
     * commutative operator (or a single rank) may use it. Shared with the ring all-reduce.
     */
    public static Optional<String> ringOrderRestriction(Shape shape, String unit) {
        if (!shape.commutative() && shape.size() > 1) {
            return Optional.of("the ring combines " + unit + " j starting at rank j+1, not in rank order, which a "
                    + "non-commutative operator needs");
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, b);
            return p.build();
        }
        appendRingReduceScatter(p, n, Math.floorMod(rank - 1, n), j -> j * b, j -> b, j -> 0);
        return p.build();
    }

    /**
     * Appends the ring reduce-scatter (N-1 steps, tags 0..N-2) to {@code p}'s program: in step s the rank puts its
     * partial of part {@code first - s} to the right and combines its own SEND part {@code first - s - 1} into the
     * partial arriving from the left ({@code own op partial}: commutative operators only); the last one lands in
     * RECV at {@code lastRecvOffset} of its part. Part j is {@code partLength(j)} bytes at {@code partOffset(j)} of
     * SEND. Shared with the ring all-reduce, whose first half it is.
     */
    public static void appendRingReduceScatter(ProgramBuilder p, int n, int first, IntToLongFunction partOffset,
                                               IntToLongFunction partLength, IntToLongFunction lastRecvOffset) {
        int rank = p.rank();
        int right = (rank + 1) % n;
        int left = Math.floorMod(rank - 1, n);
        Buffer cur = Buffer.SEND;
        long curOff = partOffset.applyAsLong(first);
        for (int s = 0; s < n - 1; s++) {
            int out = Math.floorMod(first - s, n);
            int in = Math.floorMod(first - s - 1, n);
            long inLen = partLength.applyAsLong(in);
            p.put(right, cur, curOff, partLength.applyAsLong(out), s);
            boolean last = s == n - 2;
            Buffer dst = last ? Buffer.RECV : Buffer.TEMP;
            long dstOff = last ? lastRecvOffset.applyAsLong(in) : p.allocateTemp(inLen);
            p.recv(left, s, dst, dstOff, inLen);
            // The operator is commutative: own part in from the left, no copy needed.
            p.reduce(Buffer.SEND, partOffset.applyAsLong(in), dst, dstOff, inLen);
            cur = dst;
            curOff = dstOff;
        }
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        LinkTally tally = new LinkTally(shape.placement());
        if (n == 1) {
            return tally.toCost(0, 0, "no communication");
        }
        for (int r = 0; r < n; r++) {
            tally.message(r, (r + 1) % n, (n - 1) * shape.blockBytes());
        }
        return tally.toCost(n - 1, (n - 1) * shape.blockBytes(), "(N-1) (ts + b*tau) + (N-1) b*gamma, any k");
    }

    @Override
    public String summary() {
        return "ring, one block per step to the right; (N-1)(ts + b*tau), bandwidth-optimal; commutative operators "
                + "only; any N; Patarasuk and Yuan 2009";
    }
}
