package io.railcoll.transport.shm;

import io.railcoll.memory.CacheLines;
import io.railcoll.memory.Doorbell;
import io.railcoll.memory.SequenceFlags;
import io.railcoll.memory.SharedAccess;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Gather, broadcast, all-gather and barrier among the ranks of one node through the node buffer
 * of the region: the intra-node phases of the SMP-aware algorithms (Qian and Afsahi, papers 000
 * section 4.2 and 5.2, and 001; Qian, Rashti and Afsahi, paper 002 table 1).
 *
 * <h2>Protocol</h2>
 * Every call is cut into <em>steps</em>, numbered 1, 2, 3, ... across calls; all ranks run the
 * same steps because the step count depends only on the sizes, which must agree. Step {@code s}
 * uses half {@code s mod 2} of the node buffer, so one half can be filled while the other is
 * still being drained (double buffering). Each rank owns two sequence flags in its collective
 * slot, both only ever growing:
 * <ul>
 *   <li>{@code arrive[r] >= s}: rank r's contribution to step s is in the buffer;</li>
 *   <li>{@code done[r] >= s}: rank r has finished reading the buffer for step s (and all before).</li>
 * </ul>
 * Before writing into the half of step {@code s} a rank waits for {@code done[q] >= s - 2} for
 * every q (the last step that used this half is drained); before reading a contribution of step
 * {@code s} it waits for {@code arrive[q] >= s}. Flags are published with release stores and read
 * with acquire loads, then the publisher rings every other rank's doorbell (a fence and a load
 * each unless someone sleeps). Nothing is ever reset, so repeated calls cannot race.
 *
 * <h2>What moves (L local ranks, M bytes per rank, H bytes per half)</h2>
 * <table>
 * <caption>Copies per call; steps = ceil(M / piece), at least 1</caption>
 * <tr><th>call</th><th>piece per step</th><th>writes into the buffer</th><th>reads out of it</th></tr>
 * <tr><td>gather</td><td>H / L per rank</td><td>M by each non-root (L-1 concurrent)</td><td>(L-1) M by the root; its own block goes straight to dst</td></tr>
 * <tr><td>broadcast</td><td>H</td><td>M by the root</td><td>M by each non-root (L-1 concurrent)</td></tr>
 * <tr><td>all-gather</td><td>H / L per rank</td><td>M by each rank</td><td>(L-1) M by each rank</td></tr>
 * <tr><td>barrier</td><td>-</td><td>-</td><td>-</td></tr>
 * </table>
 * Pieces are 64-byte multiples. A message larger than the buffer streams through in steps; a rank
 * may run at most two steps ahead of the slowest reader.
 *
 * <h2>Agreement check</h2>
 * At the start of a call each rank publishes a descriptor (call number mod 2^20, kind, root,
 * size mod 2^32) in its slot; a rank that sees a peer's flag reach a step of the current call
 * compares that peer's descriptor for the same call number with its own and fails with
 * {@link ShmException.Reason#MISMATCH} on a difference, so ranks that disagree fail loudly
 * rather than hang or deliver garbage (best effort: a peer already in a later call is not compared).
 *
 * <p>Threading: one thread per rank calls these methods, one call at a time. Lifetime: owned by
 * its {@link NodeRegion}. After a {@link ShmException} the instance refuses further calls: the
 * other ranks' progress is unknown, so the region must be closed.
 */
public final class NodeCollectives {
    private enum Kind {
        BARRIER("nodeBarrier"), GATHER("nodeGather"), BROADCAST("nodeBroadcast"), ALLGATHER("nodeAllgather");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private final MemorySegment segment;
    private final RegionLayout layout;
    private final int me;
    private final int size;
    private final SequenceFlags arrive;
    private final SequenceFlags done;
    private final Doorbell[] bells;
    private final PeerWait wait;
    private final long bufferOffset;
    private final long halfBytes;
    private final long pieceBytes;
    private final WaitSite arrivalSite;
    private final WaitSite drainSite;
    private final String where;

    private long step;
    private long calls;
    private boolean broken;
    // The call in progress, for descriptors and messages.
    private Kind kind;
    private int root;
    private long callBytes;
    private long firstStep;
    private long stepCount;
    private long descriptor;
    private long awaitedStep;

    NodeCollectives(MemorySegment segment, RegionLayout layout, int me, Doorbell[] bells, PeerWait wait, String where) {
        this.where = where;
        this.segment = segment;
        this.layout = layout;
        this.me = me;
        this.size = layout.localSize();
        this.arrive = new SequenceFlags(segment, layout.collectiveOffset() + RegionLayout.COLLECTIVE_ARRIVE, size,
                RegionLayout.COLLECTIVE_SLOT_BYTES);
        this.done = new SequenceFlags(segment, layout.collectiveOffset() + RegionLayout.COLLECTIVE_DONE, size,
                RegionLayout.COLLECTIVE_SLOT_BYTES);
        this.bells = bells;
        this.wait = wait;
        this.bufferOffset = layout.nodeBufferOffset();
        this.halfBytes = layout.halfBytes();
        this.pieceBytes = CacheLines.alignDown(halfBytes / size, CacheLines.LINE_BYTES);
        // Steps already taken by this rank: a view made after earlier calls resumes their numbering.
        this.step = done.get(me);
        this.arrivalSite = peer -> "the contribution of local rank " + peer + " to " + stepText();
        this.drainSite = peer -> "local rank " + peer + " to finish reading the node-buffer half before "
                + stepText();
    }

    /**
     * Waits until every local rank has entered the barrier.
     *
     * @param timeoutNs longest wait for any one peer
     */
    public void nodeBarrier(long timeoutNs) {
        begin(Kind.BARRIER, 0, 0, 1, timeoutNs);
        try {
            long s = ++step;
            // A barrier reads nothing from the buffer, so "done with step s" holds at once.
            done.publish(me, s);
            arrive.publish(me, s);
            ringOthers();
            for (int i = 1; i < size; i++) {
                awaitArrival((me + i) % size, s);
            }
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        } finally {
            wait.end();
        }
    }

    /**
     * Gathers {@code blockBytes} from every local rank into the root's {@code dst}, block of local
     * rank r at {@code dstOffset + r * blockBytes}.
     *
     * @param dst read only at the root (may be null elsewhere); {@code localSize * blockBytes} long
     */
    public void nodeGather(int root, MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst,
                           long dstOffset, long timeoutNs) {
        checkRoot(root);
        Objects.checkFromIndexSize(srcOffset, blockBytes, src.byteSize());
        if (me == root) {
            Objects.checkFromIndexSize(dstOffset, Math.multiplyExact(blockBytes, size), dst.byteSize());
        }
        begin(Kind.GATHER, root, blockBytes, steps(blockBytes, pieceBytes), timeoutNs);
        try {
            for (long k = 0; k < stepCount; k++) {
                long s = ++step;
                long off = k * pieceBytes;
                long len = Math.min(pieceBytes, blockBytes - off);
                long half = halfOffset(s);
                if (me != root) {
                    awaitDrained(s - 2);
                    MemorySegment.copy(src, srcOffset + off, segment, half + me * pieceBytes, len);
                    done.publish(me, s);
                    arrive.publish(me, s);
                    ringOthers();
                } else {
                    MemorySegment.copy(src, srcOffset + off, dst, dstOffset + me * blockBytes + off, len);
                    arrive.publish(me, s);
                    for (int i = 1; i < size; i++) {
                        int q = (me + i) % size;
                        awaitArrival(q, s);
                        MemorySegment.copy(segment, half + q * pieceBytes, dst, dstOffset + q * blockBytes + off, len);
                    }
                    done.publish(me, s);
                    ringOthers();
                }
            }
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        } finally {
            wait.end();
        }
    }

    /**
     * Copies {@code bytes} from the root's {@code buffer} into every other local rank's
     * {@code buffer} at the same offset.
     */
    public void nodeBroadcast(int root, MemorySegment buffer, long offset, long bytes, long timeoutNs) {
        checkRoot(root);
        Objects.checkFromIndexSize(offset, bytes, buffer.byteSize());
        begin(Kind.BROADCAST, root, bytes, steps(bytes, halfBytes), timeoutNs);
        try {
            for (long k = 0; k < stepCount; k++) {
                long s = ++step;
                long off = k * halfBytes;
                long len = Math.min(halfBytes, bytes - off);
                long half = halfOffset(s);
                if (me == root) {
                    awaitDrained(s - 2);
                    MemorySegment.copy(buffer, offset + off, segment, half, len);
                    done.publish(me, s);
                    arrive.publish(me, s);
                } else {
                    awaitArrival(root, s);
                    MemorySegment.copy(segment, half, buffer, offset + off, len);
                    done.publish(me, s);
                }
                ringOthers();
            }
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        } finally {
            wait.end();
        }
    }

    /**
     * Gathers {@code blockBytes} from every local rank into every rank's {@code dst}, block of
     * local rank r at {@code dstOffset + r * blockBytes}.
     */
    public void nodeAllgather(MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst, long dstOffset,
                              long timeoutNs) {
        Objects.checkFromIndexSize(srcOffset, blockBytes, src.byteSize());
        Objects.checkFromIndexSize(dstOffset, Math.multiplyExact(blockBytes, size), dst.byteSize());
        begin(Kind.ALLGATHER, 0, blockBytes, steps(blockBytes, pieceBytes), timeoutNs);
        try {
            for (long k = 0; k < stepCount; k++) {
                long s = ++step;
                long off = k * pieceBytes;
                long len = Math.min(pieceBytes, blockBytes - off);
                long half = halfOffset(s);
                awaitDrained(s - 2);
                MemorySegment.copy(src, srcOffset + off, segment, half + me * pieceBytes, len);
                arrive.publish(me, s);
                ringOthers();
                MemorySegment.copy(src, srcOffset + off, dst, dstOffset + me * blockBytes + off, len);
                // Start with the next rank, not rank 0, so the readers spread over the pieces.
                for (int i = 1; i < size; i++) {
                    int q = (me + i) % size;
                    awaitArrival(q, s);
                    MemorySegment.copy(segment, half + q * pieceBytes, dst, dstOffset + q * blockBytes + off, len);
                }
                done.publish(me, s);
                ringOthers();
            }
        } catch (RuntimeException e) {
            broken = true;
            throw e;
        } finally {
            wait.end();
        }
    }

    /** Bytes each rank contributes per step of a gather or all-gather; broadcasts move a half per step. */
    public long pieceBytes() {
        return pieceBytes;
    }

    /** Steps taken so far by this rank (diagnostics). */
    public long steps() {
        return step;
    }

    private void begin(Kind kind, int root, long bytes, long stepCount, long timeoutNs) {
        if (broken) {
            throw new IllegalStateException("a previous node collective of this rank failed; close the region");
        }
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
        this.kind = kind;
        this.root = root;
        this.callBytes = bytes;
        this.stepCount = stepCount;
        this.firstStep = step + 1;
        calls++;
        descriptor = describe(calls, kind, root, bytes);
        SharedAccess.setLongRelease(segment, descriptorOffset(me), descriptor);
        wait.begin(timeoutNs);
    }

    private void awaitArrival(int q, long s) {
        if (arrive.get(q) < s) {
            awaitedStep = s;
            do {
                wait.idle(q, arrivalSite);
            } while (arrive.get(q) < s);
            wait.progressed();
        }
        checkAgreement(q);
    }

    private void awaitDrained(long s) {
        for (int q = 0; q < size; q++) {
            if (q != me && done.get(q) < s) {
                awaitedStep = s + 2;
                do {
                    wait.idle(q, drainSite);
                } while (done.get(q) < s);
                wait.progressed();
                if (s >= firstStep) {
                    checkAgreement(q);
                }
            }
        }
    }

    private void checkAgreement(int q) {
        long theirs = SharedAccess.getLongAcquire(segment, descriptorOffset(q));
        if (theirs != descriptor && (theirs >>> 44) == (descriptor >>> 44)) {
            broken = true;
            throw new ShmException(ShmException.Reason.MISMATCH, where + ": node collective call #" + calls
                    + ": local rank " + me + " called " + decode(descriptor) + " but local rank " + q + " called " + decode(theirs));
        }
    }

    private void ringOthers() {
        Doorbell.ringAll(bells, me);
    }

    private long halfOffset(long s) {
        return bufferOffset + (s & 1) * halfBytes;
    }

    private long descriptorOffset(int rank) {
        return layout.collectiveSlot(rank) + RegionLayout.COLLECTIVE_DESCRIPTOR;
    }

    private void checkRoot(int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException("root " + root + " outside [0, " + size + ")");
        }
    }

    private static long steps(long bytes, long perStep) {
        return Math.max(1, (bytes + perStep - 1) / perStep);
    }

    private String stepText() {
        String call = kind.label + " call #" + calls + switch (kind) {
            case BARRIER -> "";
            case ALLGATHER -> " (" + callBytes + " bytes per rank)";
            case GATHER -> " (root " + root + ", " + callBytes + " bytes per rank)";
            case BROADCAST -> " (root " + root + ", " + callBytes + " bytes)";
        };
        return "step " + (awaitedStep - firstStep + 1) + " of " + stepCount + " (global step " + awaitedStep + ") of " + call;
    }

    // call number mod 2^20 | kind (4 bits) | root (8 bits) | bytes mod 2^32
    private static long describe(long call, Kind kind, int root, long bytes) {
        return (call & 0xFFFFFL) << 44 | (long) kind.ordinal() << 40 | (long) (root & 0xFF) << 32 | (bytes & 0xFFFFFFFFL);
    }

    private static String decode(long d) {
        Kind kind = Kind.values()[(int) (d >>> 40 & 0xF) % Kind.values().length];
        return kind.label + "(root " + (d >>> 32 & 0xFF) + ", " + (d & 0xFFFFFFFFL) + " bytes mod 2^32)";
    }
}
