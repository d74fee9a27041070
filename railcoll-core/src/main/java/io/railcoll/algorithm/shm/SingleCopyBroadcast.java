package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code broadcast.shm-single-copy}: a one-node broadcast by single copy (decision 0143), as the node collectives'
 * single copy did it: the root, which would otherwise wait idle, pushes the first {@link SingleCopy#rootShare} bytes
 * of the message into every other rank's RECV, while each other rank pulls the rest straight from the root's RECV.
 * Every rank publishes READY first (its RECV announced), DONE after its copies, and returns after every node-mate's
 * DONE. Any root; nodes = 1, at least 2 ranks; only where the node agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyBroadcast extends SingleCopyAlgorithm {
    public static final String ID = "broadcast.shm-single-copy";

    public SingleCopyBroadcast() {
        super(ID, Collective.BROADCAST, "b per non-root, split with the root");
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long bytes = shape.blockBytes();
        long share = SingleCopy.rootShare(bytes, n);
        ProgramBuilder p = new ProgramBuilder(rank).publish(SingleCopy.READY);
        if (rank == root) {
            for (int d = 1; d < n; d++) {
                int q = (root + d) % n;
                p.awaitFlag(q, SingleCopy.READY, 1).peerWrite(Buffer.RECV, 0, q, 0, share);
            }
        } else {
            p.awaitFlag(root, SingleCopy.READY, 1).peerRead(root, Buffer.RECV, share, Buffer.RECV, share,
                    bytes - share);
        }
        return SingleCopy.finish(p, rank, n).build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "shared-memory broadcast on one node by single copy: the root pushes an L-th of the message into every"
                + " other rank's buffer while each pulls the rest from the root's, with cross-memory attach (one"
                + " copy, no node buffer); any root; nodes = 1; only where the node agreed on cross-memory attach;"
                + " decision 0143";
    }
}
