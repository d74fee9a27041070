package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code allgather.shm-single-copy}: a one-node all-gather in which every rank pulls every node-mate's block straight
 * from that rank's SEND into its own RECV (decision 0143): L - 1 single copies of b bytes per rank, against a write
 * and L reads through the node buffer. Each rank copies its own block, publishes flag {@link SingleCopy#READY} (its
 * buffers are announced then), pulls each node-mate's block once that one's READY is seen (starting with the next
 * rank, so that the ranks do not all read the same one first), publishes {@link SingleCopy#DONE}, and returns once
 * every node-mate's DONE is seen: nobody reads its SEND any more. Nodes = 1, at least 2 ranks; only where the node
 * agreed on cross-memory attach. Stateless.
 */
public final class SingleCopyAllgather extends SingleCopyAlgorithm implements OwnBlockInPlace {
    public static final String ID = "allgather.shm-single-copy";

    public SingleCopyAllgather() {
        super(ID, Collective.ALLGATHER, "(L-1) b pulled per rank");
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank).copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b)
                .publish(SingleCopy.READY);
        for (int d = 1; d < n; d++) {
            int q = (rank + d) % n;
            p.awaitFlag(q, SingleCopy.READY, 1).peerRead(q, Buffer.SEND, 0, Buffer.RECV, q * b, b);
        }
        return SingleCopy.finish(p, rank, n).build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "shared-memory all-gather on one node by single copy: every rank pulls every node-mate's block"
                + " straight from its SEND with cross-memory attach (one copy, no node buffer); nodes = 1; only where"
                + " the node agreed on cross-memory attach; decision 0143";
    }
}
