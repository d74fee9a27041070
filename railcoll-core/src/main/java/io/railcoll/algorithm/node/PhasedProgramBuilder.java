package io.railcoll.algorithm.node;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects one rank's ops like {@link io.railcoll.algorithm.ProgramBuilder} (a copy continuing the previous one is
 * merged into it, zero-length copies vanish, TEMP regions are never reused) and also records the phase each op
 * belongs to, which {@link io.railcoll.schedule.ResourceTable} reports per phase. Copies merge only within a phase.
 * It also moves {@link PackedBlocks} between {@link Region}s. Not thread-safe; one builder per program.
 */
public final class PhasedProgramBuilder {
    private final int rank;
    private final List<Op> ops = new ArrayList<>();
    private int[] phases = new int[16];
    private int phase;
    private long tempBytes;

    public PhasedProgramBuilder(int rank) {
        this.rank = rank;
    }

    public int rank() {
        return rank;
    }

    /** Ops added from now on belong to {@code phase} (an index into the algorithm's phase names). */
    public PhasedProgramBuilder phase(int phase) {
        this.phase = phase;
        return this;
    }

    public PhasedProgramBuilder put(int peer, Buffer src, long srcOffset, long length, int tag) {
        return add(new Op.Put(peer, src, srcOffset, length, tag));
    }

    public PhasedProgramBuilder recv(int peer, int tag, Buffer dst, long dstOffset, long length) {
        return add(new Op.Recv(peer, tag, dst, dstOffset, length));
    }

    public PhasedProgramBuilder copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) {
        if (length == 0) {
            return this;
        }
        int last = ops.size() - 1;
        if (last >= 0 && phases[last] == phase && ops.get(last) instanceof Op.Copy c && c.src() == src
                && c.dst() == dst && c.srcOffset() + c.length() == srcOffset && c.dstOffset() + c.length() == dstOffset) {
            ops.set(last, new Op.Copy(src, c.srcOffset(), dst, c.dstOffset(), c.length() + length));
            return this;
        }
        return add(new Op.Copy(src, srcOffset, dst, dstOffset, length));
    }

    /** Reserves {@code bytes} of TEMP no other region overlaps; returns its offset. */
    public long allocateTemp(long bytes) {
        long offset = tempBytes;
        tempBytes = Math.addExact(tempBytes, bytes);
        return offset;
    }

    /** Where this rank keeps {@code blocks}: their final RECV range when they form one, else fresh TEMP. */
    public Region stage(PackedBlocks blocks, long blockBytes) {
        if (blocks.count() == 0 || blocks.isRecvContiguous()) {
            return new Region(Buffer.RECV, blocks.count() == 0 ? 0 : blocks.rank(0) * blockBytes);
        }
        return new Region(Buffer.TEMP, allocateTemp(blocks.bytes(blockBytes)));
    }

    /** Copies {@code blocks} kept in {@code region} to their final RECV places; nothing when already there. */
    public PhasedProgramBuilder unpack(Region region, PackedBlocks blocks, long blockBytes) {
        if (region.buffer() == Buffer.RECV) {
            return this;
        }
        for (PackedBlocks.Run run : blocks.runs()) {
            copy(region.buffer(), region.offset() + run.index() * blockBytes, Buffer.RECV, run.firstRank() * blockBytes,
                    run.count() * blockBytes);
        }
        return this;
    }

    /** Copies RECV's final places of {@code blocks} into {@code region}; nothing when that is RECV itself. */
    public PhasedProgramBuilder pack(PackedBlocks blocks, Region region, long blockBytes) {
        if (region.buffer() == Buffer.RECV) {
            return this;
        }
        for (PackedBlocks.Run run : blocks.runs()) {
            copy(Buffer.RECV, run.firstRank() * blockBytes, region.buffer(), region.offset() + run.index() * blockBytes,
                    run.count() * blockBytes);
        }
        return this;
    }

    /**
     * Receives {@code blocks} from {@code peer} into their final RECV places: straight there when they are one RECV
     * range, otherwise into fresh TEMP ({@link #stage}) and copied out run by run ({@link #unpack}).
     */
    public PhasedProgramBuilder recvInPlace(int peer, int tag, PackedBlocks blocks, long blockBytes) {
        Region region = stage(blocks, blockBytes);
        recvBlocks(peer, tag, region, blocks, blockBytes);
        return unpack(region, blocks, blockBytes);
    }

    public PhasedProgramBuilder putBlocks(int peer, Region src, PackedBlocks blocks, long blockBytes, int tag) {
        return put(peer, src.buffer(), src.offset(), blocks.bytes(blockBytes), tag);
    }

    public PhasedProgramBuilder recvBlocks(int peer, int tag, Region dst, PackedBlocks blocks, long blockBytes) {
        return recv(peer, tag, dst.buffer(), dst.offset(), blocks.bytes(blockBytes));
    }

    public RankProgram build() {
        return new RankProgram(rank, ops, tempBytes);
    }

    /** The phase of each op of {@link #build()}, in order. */
    public int[] phases() {
        return Arrays.copyOf(phases, ops.size());
    }

    private PhasedProgramBuilder add(Op op) {
        if (ops.size() == phases.length) {
            phases = Arrays.copyOf(phases, phases.length * 2);
        }
        phases[ops.size()] = phase;
        ops.add(op);
        return this;
    }
}
