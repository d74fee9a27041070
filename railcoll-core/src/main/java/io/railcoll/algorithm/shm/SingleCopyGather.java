package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code gather.shm-single-copy}: a one-node gather by single copy (decision 0143), as the node collectives' single
 * copy did it: the root pulls the first {@link SingleCopy#rootShare} bytes of every other rank's block straight from
 * that rank's SEND, while each other rank pushes the rest of its block into the root's RECV. Every rank publishes
 * READY first (its buffers announced), DONE after its copies, and returns after every node-mate's DONE. Any root;
 * nodes = 1, at least 2 ranks; only where the node agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyGather extends SingleCopyAlgorithm {
    public static final String ID = "gather.shm-single-copy";

    public SingleCopyGather() {
        super(ID, Collective.GATHER, "b per non-root, split with the root");
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long b = shape.blockBytes();
        long share = SingleCopy.rootShare(b, n);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (rank == root) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, root * b, b).publish(SingleCopy.READY);
            for (int d = 1; d < n; d++) {
                int q = (root + d) % n;
                p.awaitFlag(q, SingleCopy.READY, 1).peerRead(q, Buffer.SEND, 0, Buffer.RECV, q * b, share);
            }
        } else {
            p.publish(SingleCopy.READY).awaitFlag(root, SingleCopy.READY, 1)
                    .peerWrite(Buffer.SEND, share, root, rank * b + share, b - share);
        }
        return SingleCopy.finish(p, rank, n).build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "shared-memory gather on one node by single copy: the root pulls an L-th of every other rank's block"
                + " from its SEND while each pushes the rest into the root's buffer, with cross-memory attach (one"
                + " copy, no node buffer); any root; nodes = 1; only where the node agreed on cross-memory attach;"
                + " decision 0143";
    }
}
