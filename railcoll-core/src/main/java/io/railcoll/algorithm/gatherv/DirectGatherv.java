package io.railcoll.algorithm.gatherv;

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
 * Direct (linear) gatherv, as {@code gather.direct} with a size per rank (paper 000 sec. 5.1.1's Direct algorithm;
 * MPICH's and Open MPI's linear gatherv): every rank puts its {@code c_i} bytes straight into its place in the root's
 * RECV, the root copies its own and receives from the ranks after it, wrapping. A rank with nothing to send still
 * sends an empty message, so that its counts are compared with the root's (decision 0085).
 *
 * <p>Steps {@code ceil((N-1)/k)}; beta bytes: the sum over the root's k-wide receive steps of their largest block
 * (at most {@code ceil((N-1)/k) max c}); each rank sends {@code c_i}, the root receives {@code total - c_root}, split
 * by link class by who shares its node. No TEMP. Any N, k, root, counts.
 */
public final class DirectGatherv extends AlgorithmBase {
    public static final String ID = "gatherv.direct";
    private static final int TAG = 0;

    public DirectGatherv() {
        super(ID, Collective.GATHERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        BlockCounts c = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (rank != root) {
            p.put(root, Buffer.SEND, 0, c.of(rank), TAG);
            return p.build();
        }
        p.copy(Buffer.SEND, 0, Buffer.RECV, c.offset(root), c.of(root));
        for (int i = 1; i < n; i++) {
            int from = (root + i) % n;
            p.recv(from, TAG, Buffer.RECV, c.offset(from), c.of(from));
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        int root = shape.root();
        Traffic t = new Traffic(n);
        for (int i = 1; i < n; i++) {
            int from = (root + i) % n;
            t.send(from, root, TAG, shape.counts().of(from));
            t.receive(root, from, TAG);
        }
        return t.cost(shape.placement(), shape.ports(), "ceil((N-1)/k) ts + (sum over the root's k-wide steps of "
                + "their largest c_i) tau");
    }

    @Override
    public String summary() {
        return "every rank puts its c_i bytes into the root's RECV; ceil((N-1)/k)*ts + <= ceil((N-1)/k)*max(c)*tau; "
                + "any N, k, root, counts; paper 000 sec. 5.1.1 (Direct)";
    }
}
