package io.railcoll.algorithm.scatterv;

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
 * Direct (linear) scatterv, as {@code scatter.direct} with a size per rank (MPICH's and Open MPI's linear scatterv):
 * the root puts block i, {@code c_i} bytes, straight into rank i's RECV, k at a time over its ports, in the order of
 * the ranks after it; it copies its own. Empty blocks still go as empty messages, so every rank's counts meet the
 * root's (decision 0085).
 *
 * <p>Steps {@code ceil((N-1)/k)}; beta bytes: the sum over the root's k-wide send steps of their largest block; the
 * root sends {@code total - c_root}, rank i receives {@code c_i}. No TEMP. Any N, k, root, counts.
 */
public final class DirectScatterv extends AlgorithmBase {
    public static final String ID = "scatterv.direct";
    private static final int TAG = 0;

    public DirectScatterv() {
        super(ID, Collective.SCATTERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        BlockCounts c = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (rank != root) {
            p.recv(root, TAG, Buffer.RECV, 0, c.of(rank));
            return p.build();
        }
        for (int i = 1; i < n; i++) {
            int to = (root + i) % n;
            p.put(to, Buffer.SEND, c.offset(to), c.of(to), TAG);
        }
        p.copy(Buffer.SEND, c.offset(root), Buffer.RECV, 0, c.of(root));
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        int root = shape.root();
        Traffic t = new Traffic(n);
        for (int i = 1; i < n; i++) {
            int to = (root + i) % n;
            t.send(root, to, TAG, shape.counts().of(to));
            t.receive(to, root, TAG);
        }
        return t.cost(shape.placement(), shape.ports(), "ceil((N-1)/k) ts + (sum over the root's k-wide steps of "
                + "their largest c_i) tau");
    }

    @Override
    public String summary() {
        return "the root puts block i (c_i bytes) into rank i's RECV; ceil((N-1)/k)*ts + <= ceil((N-1)/k)*max(c)*tau; "
                + "any N, k, root, counts; paper 000 sec. 5.1.1 (Direct), downwards";
    }
}
