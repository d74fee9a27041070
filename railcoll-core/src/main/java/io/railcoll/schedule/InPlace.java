package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * What an all-gather's program does when SEND is this rank's own block of RECV (in place, decision 0220): every
 * access to SEND at offset o is one to RECV at {@code ownOffset + o} (a node-mate's SEND: its own block of its RECV),
 * and the copy of SEND to its place in RECV, which becomes a copy of a range onto itself, is gone (the engine skips
 * a copy whose source and destination are the same bytes). This is what the checker runs to prove an
 * {@link OwnBlockInPlace} claim; the engine runs the program as it is, with SEND bound to that block, which does
 * the same.
 */
public final class InPlace {

    private InPlace() {
    }

    /** Whether {@code collective} has an in-place form whose own block lies in RECV. */
    public static boolean applies(Collective collective) {
        return collective == Collective.ALLGATHER || collective == Collective.ALLGATHERV;
    }

    /** Where {@code rank}'s own block lies in its RECV, in place. */
    public static long ownOffset(Shape shape, int rank) {
        return switch (shape.collective()) {
            case ALLGATHER -> rank * shape.blockBytes();
            case ALLGATHERV -> shape.counts().offset(rank);
            default -> throw new IllegalArgumentException(shape.collective().id() + " has no in-place form with its"
                    + " own block in RECV");
        };
    }

    /** {@code program} with SEND read where it lies in place, and the copies onto themselves left out. */
    public static RankProgram aliased(Shape shape, RankProgram program) {
        int rank = program.rank();
        long own = ownOffset(shape, rank);
        List<Op> ops = new ArrayList<>(program.ops().size());
        for (Op op : program.ops()) {
            Op moved = switch (op) {
                case Op.Put p when p.src() == Buffer.SEND ->
                        new Op.Put(p.peer(), Buffer.RECV, own + p.srcOffset(), p.length(), p.tag());
                case Op.Copy c when c.src() == Buffer.SEND -> c.dst() == Buffer.RECV && c.dstOffset() == own + c.srcOffset()
                        ? null : new Op.Copy(Buffer.RECV, own + c.srcOffset(), c.dst(), c.dstOffset(), c.length());
                case Op.Reduce r when r.src() == Buffer.SEND ->
                        new Op.Reduce(Buffer.RECV, own + r.srcOffset(), r.dst(), r.dstOffset(), r.length());
                case Op.NodeWrite w when w.src() == Buffer.SEND ->
                        new Op.NodeWrite(Buffer.RECV, own + w.srcOffset(), w.nodeOffset(), w.length());
                case Op.Publish f when f.length() > 0 && f.src() == Buffer.SEND ->
                        new Op.Publish(f.flag(), Buffer.RECV, own + f.srcOffset(), f.length());
                case Op.Multicast m when m.buffer() == Buffer.SEND ->
                        new Op.Multicast(m.root(), Buffer.RECV, own + m.offset(), m.length());
                case Op.PeerRead r when r.src() == Buffer.SEND ->
                        new Op.PeerRead(r.peer(), Buffer.RECV, ownOffset(shape, r.peer()) + r.srcOffset(), r.dst(),
                                r.dstOffset(), r.length());
                case Op.PeerWrite w when w.src() == Buffer.SEND ->
                        new Op.PeerWrite(Buffer.RECV, own + w.srcOffset(), w.peer(), w.dst(), w.dstOffset(), w.length());
                default -> op;
            };
            if (moved != null) {
                ops.add(moved);
            }
        }
        return new RankProgram(rank, ops, program.tempBytes());
    }
}
