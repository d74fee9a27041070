package io.railcoll.algorithm.allgatherv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Ring all-gatherv ({@code allgather.ring} with a size per rank; MPICH's ring allgatherv): in step s (1..N-1) rank r
 * passes block {@code r-s+1} to its right neighbour and receives block {@code r-s} from its left, straight into
 * its place in RECV, from where it is passed on in the next step.
 *
 * <p>Steps {@code N-1}, single-port; every rank sends and receives {@code total} minus one block, to and from its
 * ring neighbours only; beta bytes: the longest chain of blocks along the ring, {@code total - min c} when the counts
 * are even, up to {@code (N-1) max c} when one block is much larger (every step waits for the largest). No TEMP. Any
 * N, counts; suited to large totals, where it keeps inter-node traffic low when neighbours share a node.
 */
public final class RingAllgatherv extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgatherv.ring";

    public RingAllgatherv() {
        super(ID, Collective.ALLGATHERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        int right = (rank + 1) % n;
        int left = Math.floorMod(rank - 1, n);
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, 0, Buffer.RECV, c.offset(rank), c.of(rank));
        if (n == 1) {
            return p.build();
        }
        p.put(right, Buffer.SEND, 0, c.of(rank), 1);
        for (int s = 1; s < n; s++) {
            int block = Math.floorMod(rank - s, n);
            p.recv(left, s, Buffer.RECV, c.offset(block), c.of(block));
            if (s < n - 1) {
                p.put(right, Buffer.RECV, c.offset(block), c.of(block), s + 1);
            }
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n && n > 1; r++) {
            int right = (r + 1) % n;
            int left = Math.floorMod(r - 1, n);
            t.send(r, right, 1, c.of(r));
            for (int s = 1; s < n; s++) {
                t.receive(r, left, s);
                if (s < n - 1) {
                    t.send(r, right, s + 1, c.of(Math.floorMod(r - s, n)));
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "(N-1) ts + (longest chain of blocks along the ring) tau; "
                + "equal counts c: (N-1) (ts + c tau), single-port");
    }

    @Override
    public String summary() {
        return "ring, one block of any size per step to the right neighbour; (N-1)*ts + <= (N-1)*max(c)*tau, "
                + "single-port; any N, counts; paper 000 sec. 3.1 (ring), MPICH's ring allgatherv";
    }
}
