package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Ring all-gather, the algorithm Quadrics' {@code elan_gather()} switches to above 32 KB (paper 000 section 3.1):
 * in step s rank p puts block {@code p-s+1} to rank p+1 and receives block {@code p-s} from rank p-1, straight into
 * RECV; the block it forwards next is the one that just landed, so each put's source was written by an earlier
 * Recv and never again.
 *
 * <p>Single-port by design: {@code N-1} dependent steps of one block each, {@code T = (N-1)(ts + b tau)} whatever
 * k is; the engine stripes each block over the rails instead. Each rank sends and receives {@code (N-1) b}, to and
 * from its ring neighbours only, which keeps inter-node traffic low when neighbours share a node. No TEMP. Any N.
 */
public final class RingAllgather extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgather.ring";

    public RingAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        int right = (rank + 1) % n;
        int left = Math.floorMod(rank - 1, n);
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
        if (n == 1) {
            return p.build();
        }
        p.put(right, Buffer.SEND, 0, b, 1);
        for (int s = 1; s < n; s++) {
            long block = Math.floorMod(rank - s, n);
            p.recv(left, s, Buffer.RECV, block * b, b);
            if (s < n - 1) {
                p.put(right, Buffer.RECV, block * b, b, s + 1);
            }
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < n && n > 1; r++) {
            tally.message(r, (r + 1) % n, (n - 1) * b);
        }
        return tally.toCost(n - 1, (n - 1) * b, "(N-1) * (ts + b*tau), single-port");
    }

    @Override
    public String summary() {
        return "ring, one block per step to the right neighbour; (N-1)*(ts + b*tau), single-port; any N; "
                + "paper 000 sec. 3.1 (elan_gather above 32 KB)";
    }
}
