package io.railcoll.algorithm.reducescatterv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.reducescatter.RingReduceScatter;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

import java.util.Optional;

/**
 * Ring reduce-scatter with per-rank counts ({@code MPI_Reduce_scatter}): {@code reduce-scatter.ring}'s steps
 * ({@link RingReduceScatter#appendRingReduceScatter}) over parts of the sizes the counts give: in step s rank r
 * passes its partial of block {@code r-s-1} to the right and combines its own SEND block {@code r-s-2} into the
 * partial arriving from the left, so block r is complete on rank r after N-1 steps, the last straight in RECV.
 *
 * <p>Blocks are combined along the ring, not in rank order: a non-commutative shape is refused. Steps {@code N-1},
 * single-port; each rank sends and receives {@code total} less one block to and from its neighbours only (bandwidth
 * optimal for even counts); beta bytes: the longest chain of partials along the ring. TEMP: the blocks it passes on.
 * Any N, counts.
 */
public final class RingReduceScatterv extends AlgorithmBase {
    public static final String ID = "reduce-scatterv.ring";

    public RingReduceScatterv() {
        super(ID, Collective.REDUCE_SCATTERV);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        if (!shape.commutative() && shape.size() > 1) {
            return Optional.of("the ring combines block j starting at rank j+1, not in rank order, which a "
                    + "non-commutative operator needs");
        }
        return Optional.empty();
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (n == 1) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, 0, c.of(0));
            return p.build();
        }
        RingReduceScatter.appendRingReduceScatter(p, n, Math.floorMod(rank - 1, n), c::offset, c::of, j -> 0);
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n && n > 1; r++) {
            int first = Math.floorMod(r - 1, n);
            for (int s = 0; s < n - 1; s++) {
                t.send(r, (r + 1) % n, s, c.of(Math.floorMod(first - s, n)));
                t.receive(r, Math.floorMod(r - 1, n), s);
            }
        }
        return t.cost(shape.placement(), shape.ports(), "(N-1) ts + (longest chain of partials along the ring) tau "
                + "+ (total - c_r) gamma; equal counts c: (N-1) (ts + c tau), single-port");
    }

    @Override
    public String summary() {
        return "ring, partials of any size passed right and combined on the way; (N-1)*ts + <= (N-1)*max(c)*tau; "
                + "commutative operators; any N, counts; Patarasuk and Yuan 2009";
    }
}
