package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code allgather.shm}: a one-node all-gather in node steps (paper 000 sec. 4.2, paper 002 Table 1; decision 0190),
 * a schedule the engine runs like any other. Every rank copies its block into its own slot of the node buffer and
 * raises flag {@link #WRITTEN}, copies its block into place, then for each node-mate in turn (starting with the next
 * rank, so that they do not all read the same slot first) waits for that raise and copies the block out: one write
 * and N-1 reads of b per rank, one flag crossing. Blocks too large for the node buffer go through it in chunks
 * ({@link NodeBlockSlots}): a rank raises {@link #DRAINED} after it read a chunk of every node-mate, and rewrites a
 * slot only after every node-mate's raise for the chunk there before. A 0-byte all-gather is still one raise and
 * N-1 awaits per rank (a node-mate running another call fails with a mismatch rather than at its deadline). Blocks of
 * at most {@link NodeBuffer#PAYLOAD_BYTES} ride in the raise itself, in the flag's cache line, and each await reads
 * them from there: one line per node-mate instead of a flag and a slot (decision 0202). Nodes =
 * 1, at least 2 ranks; only where the node region is enabled. Stateless.
 */
public final class NodeAllgather extends AlgorithmBase implements NodeRegionUser, OwnBlockInPlace {
    public static final String ID = "allgather.shm";
    /** Raised by a rank after each chunk of its block it wrote. */
    static final int WRITTEN = 0;
    /** Raised by a rank after it read a chunk of every node-mate whose slot a later chunk reuses. */
    static final int DRAINED = 1;

    public NodeAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape).or(() -> NodeBlockSlots.unsupported(shape, shape.size()));
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        NodeBlockSlots slots = NodeBlockSlots.of(b, n);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (b == 0) {
            // Nothing to move, but one crossing all the same (see the class comment).
            p.publish(WRITTEN);
            for (int d = 1; d < n; d++) {
                p.awaitFlag((rank + d) % n, WRITTEN, 1);
            }
            return p.build();
        }
        if (b <= NodeBuffer.PAYLOAD_BYTES) {
            // The block rides in the flag's own line: one cache miss per node-mate, no slot (decision 0202).
            p.publish(WRITTEN, Buffer.SEND, 0, b).copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
            for (int d = 1; d < n; d++) {
                int q = (rank + d) % n;
                p.awaitFlag(q, WRITTEN, 1, Buffer.RECV, q * b, b);
            }
            return p.build();
        }
        for (int j = 0; j < slots.chunks(); j++) {
            long at = slots.chunkOffset(j);
            long len = slots.chunkLength(j);
            if (slots.drainedBefore(j) > 0) {
                for (int d = 1; d < n; d++) {
                    p.awaitFlag((rank + d) % n, DRAINED, slots.drainedBefore(j));
                }
            }
            p.nodeWrite(Buffer.SEND, at, slots.slot(rank, j), len).publish(WRITTEN);
            if (j == 0) {
                // After the raise: node-mates can start reading while this rank copies its own block.
                p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
            }
            for (int d = 1; d < n; d++) {
                int q = (rank + d) % n;
                p.awaitFlag(q, WRITTEN, j + 1).nodeRead(slots.slot(q, j), Buffer.RECV, q * b + at, len);
            }
            if (slots.drainedAfter(j)) {
                p.publish(DRAINED);
            }
        }
        return p.build();
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: b written, (N-1) b read per rank; one flag"
                + " crossing per chunk of the node buffer");
    }

    @Override
    public String summary() {
        return "shared-memory all-gather on one node in node steps: every rank copies its block into its slot of the"
                + " node buffer and raises a flag, then copies each node-mate's block out once raised (in chunks"
                + " through double-buffered slots when the blocks exceed the buffer); nodes = 1; paper 000 sec. 4.2,"
                + " paper 002 Table 1, decision 0190";
    }
}
