package io.railcoll.algorithm.alltoall;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Direct all-to-all (paper 000 section 5.1.3): the grouping of the Direct all-gather, each message personalised.
 * In step i rank p puts SEND block {@code q} into RECV slot p of ranks {@code q = p+(i-1)k+1 .. p+ik (mod N)}; every
 * block lands in its final place.
 *
 * <p>Steps {@code ceil((N-1)/k)}, one block per message: equation (2). Each rank sends and receives
 * {@code (N-1) b}, split by link class by placement. No TEMP. Any N and k. Suited to large blocks.
 */
public final class DirectAlltoall extends AlgorithmBase {
    public static final String ID = "alltoall.direct";
    private static final int TAG = 0;

    public DirectAlltoall() {
        super(ID, Collective.ALLTOALL);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, rank * b, Buffer.RECV, rank * b, b);
        for (int i = 1; i < n; i++) {
            int to = (rank + i) % n;
            p.put(to, Buffer.SEND, to * b, b, TAG);
        }
        for (int i = 1; i < n; i++) {
            int from = Math.floorMod(rank - i, n);
            p.recv(from, TAG, Buffer.RECV, from * b, b);
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        int steps = (int) Radix.ceilDiv(n - 1, shape.ports());
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < n; r++) {
            for (int i = 1; i < n; i++) {
                tally.message(r, (r + i) % n, b);
            }
        }
        return tally.toCost(steps, steps * b, "ceil((N-1)/k) * (ts + b*tau)  [paper 000 eq. (2)]");
    }

    @Override
    public String summary() {
        return "each rank puts block j to rank j, k ranks per step, wrapping; ceil((N-1)/k)*(ts + b*tau); any N, k; "
                + "paper 000 sec. 5.1.3";
    }
}
