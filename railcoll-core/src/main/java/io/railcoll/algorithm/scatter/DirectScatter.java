package io.railcoll.algorithm.scatter;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.DirectPattern;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Direct scatter, the mirror of the direct gather (paper 000 sec. 5.1.1, "Direct algorithm"): the root puts block i
 * of its SEND straight into rank i's RECV, k messages at a time, to the ranks after it first (wrapping); it copies its
 * own. Equation (2): {@code T = ceil((N-1)/k) (ts + b tau)}.
 *
 * <p>Bytes: the root sends {@code (N-1) b}, split by link class by how many ranks share its node; every other rank
 * receives b. No TEMP. Any N, k and root. Suited to medium and large blocks, where the tree's re-sending of data
 * costs more than its fewer start-ups save.
 */
public final class DirectScatter extends AlgorithmBase {
    public static final String ID = "scatter.direct";
    private static final int TAG = 0;

    public DirectScatter() {
        super(ID, Collective.SCATTER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (rank != root) {
            p.recv(root, TAG, Buffer.RECV, 0, b);
            return p.build();
        }
        for (int i = 1; i < n; i++) {
            int to = (root + i) % n;
            p.put(to, Buffer.SEND, to * b, b, TAG);
        }
        p.copy(Buffer.SEND, root * b, Buffer.RECV, 0, b);
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < shape.size(); r++) {
            if (r != shape.root()) {
                tally.message(shape.root(), r, shape.blockBytes());
            }
        }
        return DirectPattern.cost(shape, tally);
    }

    @Override
    public String summary() {
        return "the root puts each block into its rank's RECV, k at a time; ceil((N-1)/k)*(ts + b*tau); any N, k, root; "
                + "paper 000 sec. 5.1.1 eq. (2), mirrored";
    }
}
