package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * The other shape weighed in decision 0227, kept for its measurement only: rank r pulls every lower rank's SEND
 * itself, piece by piece, and folds them from the right ({@code c0 op (c1 op (... op cr))}, as {@code scan.shm});
 * no chain, rank r pulls r vectors. Stateless.
 */
public final class SingleCopyFanInScan extends SingleCopyAlgorithm {
    private final boolean exclusive;

    private SingleCopyFanInScan(Collective collective) {
        super(collective.id() + ".shm-single-copy-fanin", collective, "r b pulled and combined by rank r");
        this.exclusive = collective == Collective.EXSCAN;
    }

    public static SingleCopyFanInScan inclusive() {
        return new SingleCopyFanInScan(Collective.SCAN);
    }

    public static SingleCopyFanInScan exclusive() {
        return new SingleCopyFanInScan(Collective.EXSCAN);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        long b = shape.blockBytes();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.publish(SingleCopy.READY);
        if (b == 0) {
            for (int d = 1; d < l; d++) {
                p.awaitFlag((rank + d) % l, SingleCopy.READY, 1);
            }
            return p.build();
        }
        int top = exclusive ? rank - 1 : rank;
        if (top >= 0) {
            for (int q = 0; q < top; q++) {
                p.awaitFlag(q, SingleCopy.READY, 1);
            }
            if (top != rank) {
                p.awaitFlag(top, SingleCopy.READY, 1);
            }
            long piece = SingleCopyScan.pieceBytes(shape);
            long temp = top > 0 ? p.allocateTemp(Math.min(piece, b)) : 0;
            for (long at = 0; at < b; at += piece) {
                long n = Math.min(piece, b - at);
                if (top == rank) {
                    p.copy(Buffer.SEND, at, Buffer.RECV, at, n);
                } else {
                    p.peerRead(top, Buffer.SEND, at, Buffer.RECV, at, n);
                }
                for (int q = top - 1; q >= 0; q--) {
                    p.peerRead(q, Buffer.SEND, at, Buffer.TEMP, temp, n);
                    p.reduce(Buffer.TEMP, temp, Buffer.RECV, at, n);
                }
            }
        }
        return SingleCopy.finish(p, rank, l).build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        return noMessages(shape);
    }

    @Override
    public String summary() {
        return "prefix on one node by single copy, every rank pulling all lower ranks' SEND (measurement only;"
                + " decision 0227)";
    }
}
