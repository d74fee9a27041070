package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * {@code broadcast.shm-scatter-allgather}: a one-node broadcast by single copy in which no two ranks pull the same
 * bytes of one node-mate at the same time (decision 0180): the scatter and all-gather of
 * {@code broadcast.scatter-allgather}, here as cross-memory attach pulls. The message is cut into L-1 parts of one 64-byte multiple each (the last one
 * shorter, trailing ones empty when the message is small), part t belonging to the non-root t places after the root.
 * <ol>
 *   <li>scatter: each non-root pulls its own part from the root's RECV and raises HAVE;</li>
 *   <li>all-gather: at step d = 1..L-2 the non-root of relative index r pulls part ((r - 1 + d) mod (L - 1)) + 1 from
 *       that part's owner, once the owner's HAVE is up. At one step the L-1 readers pull from L-1 different owners,
 *       so a source page is pinned by one reader at a time.</li>
 * </ol>
 * Why (docs/results/node-broadcast-large.md): in {@code broadcast.shm} and {@code broadcast.shm-single-copy} every
 * non-root pulls the same range of the root's buffer at once, and with 15 readers on 16 processors the kernel's
 * pinning of those pages serialises them (1 MiB in 1759 us, where one copy of 1 MiB takes about 100 us). Here each
 * rank copies b bytes once ((L-1) b over the node, the least a broadcast can copy) in L-1 system calls, the root
 * copies nothing, and each source byte is read L-2 times at L-2 different moments.
 *
 * <p>Flags: READY (buffers announced), HAVE (own part pulled), DONE (no access to node-mates' buffers left); a rank
 * returns after every node-mate's DONE, so no buffer is reused while it may still be read (decision 0143). Any root;
 * nodes = 1, at least 2 ranks (with 2 the one non-root pulls everything from the root); only where the node agreed
 * on cross-memory attach. Stateless.
 */
public final class SingleCopyScatterAllgatherBroadcast extends SingleCopyAlgorithm {
    public static final String ID = "broadcast.shm-scatter-allgather";
    /** Raised by a non-root once its own part is in its RECV. */
    static final int HAVE = 2;

    public SingleCopyScatterAllgatherBroadcast() {
        super(ID, Collective.BROADCAST, "b per non-root in L-1 pulls of b/(L-1) from L-1 different node-mates");
    }

    /** Bytes of each part of a {@code bytes} message over {@code parts} parts: a 64-byte multiple covering it. */
    static long partBytes(long bytes, int parts) {
        long part = (bytes + parts - 1) / parts;
        return (part + 63) & ~63L;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int root = shape.root();
        long bytes = shape.blockBytes();
        int parts = n - 1;
        long part = partBytes(bytes, parts);
        ProgramBuilder p = new ProgramBuilder(rank).publish(SingleCopy.READY);
        if (rank != root) {
            int own = (rank - root + n) % n;
            p.awaitFlag(root, SingleCopy.READY, 1);
            pull(p, root, own, part, bytes);
            p.publish(HAVE);
            for (int d = 1; d < parts; d++) {
                int t = (own - 1 + d) % parts + 1;
                if (length(t, part, bytes) > 0) {
                    int owner = (t + root) % n;
                    p.awaitFlag(owner, HAVE, 1);
                    pull(p, owner, t, part, bytes);
                }
            }
        }
        return SingleCopy.finish(p, rank, n).build();
    }

    /** Pulls part {@code t} (1-based) from {@code from}'s RECV into the same bytes of this rank's RECV. */
    private static void pull(ProgramBuilder p, int from, int t, long part, long bytes) {
        long length = length(t, part, bytes);
        if (length > 0) {
            long start = (t - 1) * part;
            p.peerRead(from, Buffer.RECV, start, Buffer.RECV, start, length);
        }
    }

    private static long length(int t, long part, long bytes) {
        return Math.max(0, Math.min(bytes, t * part) - (t - 1) * part);
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "shared-memory broadcast on one node by single copy without contention: each non-root pulls its"
                + " (L-1)-th of the message from the root, then the other parts from their owners, every owner read"
                + " by one rank at a time (scatter and all-gather in cross-memory attach pulls); any root; nodes = 1;"
                + " only where the node agreed on cross-memory attach; decision 0180";
    }
}
