package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code gather.shm}: a one-node gather in node steps (paper 000 sec. 4.2; decision 0190), a schedule the engine
 * runs like any other. Every non-root copies its block into its own slot of the node buffer and raises flag
 * {@link #WRITTEN}, then leaves; the root copies its own block, and for each node-mate in turn (starting after itself)
 * waits for that raise and copies the block out. Blocks too large for the node buffer go through it in chunks
 * ({@link NodeBlockSlots}): a non-root rewrites a slot only after the root raised {@link #DRAINED} for the chunk
 * there before, so the buffer streams. A 0-byte gather is still one raise per non-root, awaited by the root: a
 * node-mate that runs another call meets this one's digest there and fails with a mismatch. Blocks of at most
 * {@link NodeBuffer#PAYLOAD_BYTES} ride in the raise itself, in the flag's cache line (decision 0202). Any root; nodes = 1, at
 * least 2 ranks; only where the node region is enabled. Stateless.
 */
public final class NodeGather extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "gather.shm";
    /** Raised by a non-root after each chunk of its block it wrote. */
    static final int WRITTEN = 0;
    /** Raised by the root after it read a chunk of every non-root whose slot a later chunk reuses. */
    static final int DRAINED = 1;

    public NodeGather() {
        super(ID, Collective.GATHER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape)
                .or(() -> NodeBlockSlots.unsupported(shape, shape.size() - 1));
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long b = shape.blockBytes();
        NodeBlockSlots slots = NodeBlockSlots.of(b, n - 1);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (b == 0) {
            // Nothing to move, but one crossing all the same (see the class comment).
            if (rank == root) {
                for (int d = 1; d < n; d++) {
                    p.awaitFlag((root + d) % n, WRITTEN, 1);
                }
            } else {
                p.publish(WRITTEN);
            }
            return p.build();
        }
        if (b <= NodeBuffer.PAYLOAD_BYTES) {
            // The block rides in the flag's own line: one cache miss per non-root at the root (decision 0202).
            if (rank == root) {
                p.copy(Buffer.SEND, 0, Buffer.RECV, root * b, b);
                for (int d = 1; d < n; d++) {
                    int q = (root + d) % n;
                    p.awaitFlag(q, WRITTEN, 1, Buffer.RECV, q * b, b);
                }
            } else {
                p.publish(WRITTEN, Buffer.SEND, 0, b);
            }
            return p.build();
        }
        if (rank == root) {
            p.copy(Buffer.SEND, 0, Buffer.RECV, root * b, b);
            for (int j = 0; j < slots.chunks(); j++) {
                long at = slots.chunkOffset(j);
                long len = slots.chunkLength(j);
                for (int d = 1; d < n; d++) {
                    int q = (root + d) % n;
                    p.awaitFlag(q, WRITTEN, j + 1).nodeRead(slots.slot(d - 1, j), Buffer.RECV, q * b + at, len);
                }
                if (slots.drainedAfter(j)) {
                    p.publish(DRAINED);
                }
            }
        } else {
            int writer = (rank - root + n) % n - 1;
            for (int j = 0; j < slots.chunks(); j++) {
                if (slots.drainedBefore(j) > 0) {
                    p.awaitFlag(root, DRAINED, slots.drainedBefore(j));
                }
                p.nodeWrite(Buffer.SEND, slots.chunkOffset(j), slots.slot(writer, j), slots.chunkLength(j))
                        .publish(WRITTEN);
            }
        }
        return p.build();
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: b written per non-root, (N-1) b read by"
                + " the root; one flag crossing per chunk of the node buffer");
    }

    @Override
    public String summary() {
        return "shared-memory gather on one node in node steps: every non-root copies its block into its slot of the"
                + " node buffer and raises a flag, the root copies each block out once raised (in chunks through"
                + " double-buffered slots when the blocks exceed the buffer); any root; nodes = 1; paper 000 sec. 4.2,"
                + " decision 0190";
    }
}
