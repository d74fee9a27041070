package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.reducescatter.RingReduceScatter;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * Ring all-reduce for large vectors (Patarasuk and Yuan 2009; the ring of Baidu and NCCL): the vector is cut into
 * N parts at element boundaries; a ring reduce-scatter (N-1 steps: rank r passes its partial of part
 * {@code r-s} to the right and combines the part {@code r-s-1} arriving from the left into its own) leaves part
 * {@code r+1} complete on rank r, and a ring all-gather (N-1 steps) copies every part to every rank.
 *
 * <p>Identical bits: each part is combined once, along the ring, and then only copied. The order along the ring
 * starts at rank {@code j+1} for part j, so a non-commutative operator cannot use it (such a shape is refused).
 * Each rank sends and receives {@code 2(N-1)/N b} to and from its ring neighbours only: bandwidth-optimal,
 * {@code T = 2(N-1) ts + 2(N-1)/N b tau + (N-1)/N b gamma}; TEMP holds N-2 parts.
 */
public final class RingAllreduce extends AlgorithmBase {
    public static final String ID = "allreduce.ring";

    public RingAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return RingReduceScatter.ringOrderRestriction(shape, "part");
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
        int right = (rank + 1) % n;
        int left = Math.floorMod(rank - 1, n);
        // Reduce-scatter: the partial of part (rank - s) leaves in step s; part (rank - s - 1) arrives; part rank+1
        // ends complete, in its place in RECV.
        RingReduceScatter.appendRingReduceScatter(p, n, rank, i -> offset(shape, i), i -> length(shape, i),
                i -> offset(shape, i));
        // All-gather: part (rank + 1 - t) leaves in step t, part (rank - t) arrives straight into RECV.
        for (int t = 0; t < n - 1; t++) {
            int out = Math.floorMod(rank + 1 - t, n);
            int in = Math.floorMod(rank - t, n);
            p.put(right, Buffer.RECV, offset(shape, out), length(shape, out), n - 1 + t);
            p.recv(left, n - 1 + t, Buffer.RECV, offset(shape, in), length(shape, in));
        }
        return p.build();
    }

    /** Byte offset of part {@code i}: parts hold {@code elements/N} elements, the first {@code elements%N} one more. */
    static long offset(Shape shape, int i) {
        return SmpAllreduce.sliceOffset(shape, shape.size(), i);
    }

    static long length(Shape shape, int i) {
        return SmpAllreduce.sliceLength(shape, shape.size(), i);
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        LinkTally tally = new LinkTally(shape.placement());
        if (n == 1) {
            return tally.toCost(0, 0, "no communication");
        }
        long largest = length(shape, 0);
        for (int r = 0; r < n; r++) {
            long sent = 0;
            for (int s = 0; s < n - 1; s++) {
                sent += length(shape, Math.floorMod(r - s, n)) + length(shape, Math.floorMod(r + 1 - s, n));
            }
            tally.message(r, (r + 1) % n, sent);
        }
        return tally.toCost(2 * (n - 1), 2 * (n - 1) * largest,
                "2(N-1) ts + 2(N-1) ceil(b/N) tau + (N-1) ceil(b/N) gamma, single-port");
    }

    @Override
    public String summary() {
        return "ring reduce-scatter then ring all-gather, N parts; 2(N-1) ts + 2(N-1)/N b tau, bandwidth-optimal; "
                + "commutative operators only; any N; Patarasuk and Yuan 2009";
    }
}
