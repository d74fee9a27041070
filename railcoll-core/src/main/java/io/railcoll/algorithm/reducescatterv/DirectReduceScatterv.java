package io.railcoll.algorithm.reducescatterv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Direct reduce-scatter with per-rank counts: every rank puts SEND block j, {@code c_j} bytes, straight to rank j
 * (an all-to-allv of the blocks), and rank r combines the N contributions to its block in rank order,
 * {@code s0 op (s1 op (... op s(N-1)))}: the last one lands in RECV, each lower one is received into TEMP (its own
 * read from SEND) and combined in front of it. Rank order makes it correct for non-commutative operators.
 *
 * <p>Steps {@code ceil((N-1)/k)}; rank r sends {@code total - c_r} and receives {@code (N-1) c_r}; beta bytes: the
 * sum over the k-wide steps of the largest block then; reduction work {@code (N-1) c_r}. TEMP: {@code (N-2) c_r}.
 * Any N, k, counts; suited to small vectors, where one step of latency beats the ring's N-1.
 */
public final class DirectReduceScatterv extends AlgorithmBase {
    public static final String ID = "reduce-scatterv.direct";
    private static final int TAG = 0;

    public DirectReduceScatterv() {
        super(ID, Collective.REDUCE_SCATTERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        long mine = c.of(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        for (int i = 1; i < n; i++) {
            int to = (rank + i) % n;
            p.put(to, Buffer.SEND, c.offset(to), c.of(to), TAG);
        }
        int last = n - 1;
        if (rank == last) {
            p.copy(Buffer.SEND, c.offset(rank), Buffer.RECV, 0, mine);
        } else {
            p.recv(last, TAG, Buffer.RECV, 0, mine);
        }
        for (int from = n - 2; from >= 0; from--) {
            if (from == rank) {
                p.reduce(Buffer.SEND, c.offset(rank), Buffer.RECV, 0, mine);
            } else {
                long temp = p.allocateTemp(mine);
                p.recv(from, TAG, Buffer.TEMP, temp, mine);
                p.reduce(Buffer.TEMP, temp, Buffer.RECV, 0, mine);
            }
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            for (int i = 1; i < n; i++) {
                t.send(r, (r + i) % n, TAG, c.of((r + i) % n));
            }
            for (int from = n - 1; from >= 0; from--) {
                if (from != r) {
                    t.receive(r, from, TAG);
                }
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil((N-1)/k) ts + (sum over k-wide steps of their "
                + "largest block) tau + (N-1) c_r gamma");
    }

    @Override
    public String summary() {
        return "every rank puts block j to rank j, which combines them in rank order; ceil((N-1)/k)*ts + "
                + "<= ceil((N-1)/k)*max(c)*tau + (N-1)*c_r*gamma; any N, k, counts, operator";
    }
}
