package io.railcoll.algorithm.allgather;

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
 * Direct all-gather (paper 000 section 5.1.2, paper 001 section 6.1.1): the k-port sequential tree. In step i rank
 * p puts its SEND block into the RECV slot p of ranks {@code p+(i-1)k+1 .. p+ik (mod N)}; every block lands in its
 * final place, so there is no TEMP and no copy but the rank's own.
 *
 * <p>Steps {@code ceil((N-1)/k)}, one block per message: equation (2), {@code T = ceil((N-1)/k) (ts + b tau)}.
 * Each rank sends and receives {@code (N-1) b}, split by link class by placement. Any N and k. Suited to large
 * blocks.
 */
public final class DirectAllgather extends AlgorithmBase {
    public static final String ID = "allgather.direct";
    private static final int TAG = 0;

    public DirectAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
        for (int i = 1; i < n; i++) {
            p.put((rank + i) % n, Buffer.SEND, 0, b, TAG);
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
        return "each rank puts its block to k ranks per step, wrapping; ceil((N-1)/k)*(ts + b*tau); any N, k; "
                + "paper 000 sec. 5.1.2, paper 001 sec. 6.1.1";
    }
}
