package io.railcoll.algorithm.gather;

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
 * Direct gather (paper 000 section 5.1.1, "Direct algorithm"): every rank puts its block straight into its slot of
 * the root's RECV; the root copies its own. The root takes k messages per step, so it finishes after
 * {@code ceil((N-1)/k)} steps: equation (2), {@code T = ceil((N-1)/k) (ts + b tau)}, as {@link DirectPattern#cost}
 * states it for every Direct algorithm.
 *
 * <p>Bytes: each rank sends b (intra-node if it shares the root's node, else inter-node); the root receives
 * {@code (N-1) b}, split by link class by how many ranks share its node. No TEMP. Any N, k and root. Suited to
 * medium and large blocks, where the tree's re-sending of data costs more than its fewer start-ups save.
 */
public final class DirectGather extends AlgorithmBase {
    public static final String ID = "gather.direct";
    private static final int TAG = 0;

    public DirectGather() {
        super(ID, Collective.GATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (rank != root) {
            p.put(root, Buffer.SEND, 0, b, TAG);
            return p.build();
        }
        p.copy(Buffer.SEND, 0, Buffer.RECV, root * b, b);
        // Receive in the order the k receive ports take the messages: the ranks after the root, wrapping.
        for (int i = 1; i < n; i++) {
            int from = (root + i) % n;
            p.recv(from, TAG, Buffer.RECV, from * b, b);
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        LinkTally tally = new LinkTally(shape.placement());
        for (int r = 0; r < shape.size(); r++) {
            if (r != shape.root()) {
                tally.message(r, shape.root(), shape.blockBytes());
            }
        }
        return DirectPattern.cost(shape, tally);
    }

    @Override
    public String summary() {
        return "every rank puts its block into the root's RECV; ceil((N-1)/k)*(ts + b*tau); any N, k, root; "
                + "paper 000 sec. 5.1.1 eq. (2)";
    }
}
