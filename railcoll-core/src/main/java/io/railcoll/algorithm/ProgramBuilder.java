package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects one rank's ops. It merges a Copy (or a Reduce) that continues the previous one (both source and
 * destination contiguous) into it, so per-block copy loops stay a few ops, and hands out TEMP regions that are never reused:
 * without completion notices a schedule cannot know when a put has finished reading, so a fresh region is the
 * simple way to keep put sources stable. Not thread-safe; one builder per program.
 */
public final class ProgramBuilder {
    private final int rank;
    private final List<Op> ops = new ArrayList<>();
    private long tempBytes;

    public ProgramBuilder(int rank) {
        this.rank = rank;
    }

    public int rank() {
        return rank;
    }

    public ProgramBuilder put(int peer, Buffer src, long srcOffset, long length, int tag) {
        ops.add(new Op.Put(peer, src, srcOffset, length, tag));
        return this;
    }

    public ProgramBuilder recv(int peer, int tag, Buffer dst, long dstOffset, long length) {
        ops.add(new Op.Recv(peer, tag, dst, dstOffset, length));
        return this;
    }

    /** Adds a copy, or extends the previous op when it is a copy this one continues; zero-length copies vanish. */
    public ProgramBuilder copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) {
        if (length == 0) {
            return this;
        }
        if (!ops.isEmpty() && ops.getLast() instanceof Op.Copy last && last.src() == src && last.dst() == dst
                && last.srcOffset() + last.length() == srcOffset && last.dstOffset() + last.length() == dstOffset) {
            ops.set(ops.size() - 1, new Op.Copy(src, last.srcOffset(), dst, last.dstOffset(), last.length() + length));
            return this;
        }
        ops.add(new Op.Copy(src, srcOffset, dst, dstOffset, length));
        return this;
    }

    /**
     * Adds a reduction step {@code dst = src op dst} ({@link Op.Reduce}; {@code src} is the left operand), or extends
     * the previous op when it is a reduction this one continues (combining is element by element, so two adjacent
     * ranges are one range); zero-length ones vanish.
     */
    public ProgramBuilder reduce(Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) {
        if (length == 0) {
            return this;
        }
        if (!ops.isEmpty() && ops.getLast() instanceof Op.Reduce last && last.src() == src && last.dst() == dst
                && last.srcOffset() + last.length() == srcOffset && last.dstOffset() + last.length() == dstOffset) {
            ops.set(ops.size() - 1, new Op.Reduce(src, last.srcOffset(), dst, last.dstOffset(), last.length() + length));
            return this;
        }
        ops.add(new Op.Reduce(src, srcOffset, dst, dstOffset, length));
        return this;
    }

    /** Copies {@code src[srcOffset..]} into the node buffer at {@code nodeOffset} (a node step, decision 0101). */
    public ProgramBuilder nodeWrite(Buffer src, long srcOffset, long nodeOffset, long length) {
        ops.add(new Op.NodeWrite(src, srcOffset, nodeOffset, length));
        return this;
    }

    /** Copies the node buffer at {@code nodeOffset} into {@code dst[dstOffset..]}. */
    public ProgramBuilder nodeRead(long nodeOffset, Buffer dst, long dstOffset, long length) {
        ops.add(new Op.NodeRead(nodeOffset, dst, dstOffset, length));
        return this;
    }

    /** Raises this rank's node flag {@code flag} once more. */
    public ProgramBuilder publish(int flag) {
        ops.add(new Op.Publish(flag));
        return this;
    }

    /** Waits until node-mate {@code peer} raised its flag {@code flag} {@code count} times in this call. */
    public ProgramBuilder awaitFlag(int peer, int flag, int count) {
        ops.add(new Op.AwaitFlag(peer, flag, count));
        return this;
    }

    /**
     * Raises flag {@code flag} carrying {@code src[srcOffset..srcOffset+length)} in the flag's line (at most
     * {@link io.railcoll.schedule.NodeBuffer#PAYLOAD_BYTES}; decision 0202).
     */
    public ProgramBuilder publish(int flag, Buffer src, long srcOffset, long length) {
        ops.add(new Op.Publish(flag, src, srcOffset, length));
        return this;
    }

    /** Awaits node-mate {@code peer}'s {@code count}-th raise of {@code flag} and copies the bytes it carried. */
    public ProgramBuilder awaitFlag(int peer, int flag, int count, Buffer dst, long dstOffset, long length) {
        ops.add(new Op.AwaitFlag(peer, flag, count, dst, dstOffset, length));
        return this;
    }

    /**
     * Delivers {@code buffer[offset..offset+length)} from {@code root} to every rank through the multicast group
     * (decision 0146): every rank's program adds the same one, in the same order.
     */
    public ProgramBuilder multicast(int root, Buffer buffer, long offset, long length) {
        ops.add(new Op.Multicast(root, buffer, offset, length));
        return this;
    }

    /** Pulls node-mate {@code peer}'s {@code src[srcOffset..]} into {@code dst[dstOffset..]} (single copy, 0143). */
    public ProgramBuilder peerRead(int peer, Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) {
        ops.add(new Op.PeerRead(peer, src, srcOffset, dst, dstOffset, length));
        return this;
    }

    /** Pushes {@code src[srcOffset..]} into node-mate {@code peer}'s RECV at {@code dstOffset} (single copy, 0143). */
    public ProgramBuilder peerWrite(Buffer src, long srcOffset, int peer, long dstOffset, long length) {
        ops.add(new Op.PeerWrite(src, srcOffset, peer, Buffer.RECV, dstOffset, length));
        return this;
    }

    /** Appends {@code program}'s ops (a part built for the same rank) as they are. */
    public ProgramBuilder append(RankProgram program) {
        if (program.tempBytes() > 0) {
            throw new IllegalArgumentException("cannot append a program that uses TEMP");
        }
        ops.addAll(program.ops());
        return this;
    }

    /** Reserves {@code bytes} of TEMP no other region overlaps; returns its offset. */
    public long allocateTemp(long bytes) {
        long offset = tempBytes;
        tempBytes = Math.addExact(tempBytes, bytes);
        return offset;
    }

    /** How many ops the program has so far: the index the next op gets. */
    public int size() {
        return ops.size();
    }

    public RankProgram build() {
        return new RankProgram(rank, ops, tempBytes);
    }
}
