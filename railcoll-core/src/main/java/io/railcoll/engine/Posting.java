package io.railcoll.engine;

import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One collective in flight: a resumable state machine over its {@link CompiledProgram} (the next op to run, the
 * bytes landed per receive slot, the frames its puts still hold). One object per slot of the engine's window, reused
 * by every sequence number that maps to the slot, so posting a call allocates nothing once the slot's arrays have
 * grown to the largest program run.
 *
 * <p>Threading: the fields of the call are written by the thread that drives the engine (under the communicator's
 * gate) before {@link #activeSeq} is set, and read by transports' threads after they read it: {@code activeSeq}
 * is the publication point. Receive counters are updated atomically by whichever thread delivers a frame.
 */
final class Posting {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle ACTIVE_SEQ;

    static {
        try {
            ACTIVE_SEQ = MethodHandles.lookup().findVarHandle(Posting.class, "activeSeq", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** No call holds the slot (never used, or its call finished or failed). */
    static final long NONE = 0;

    /** The call's sequence number while it is in flight; {@link #NONE} otherwise. Frames check it first. */
    volatile long activeSeq;
    /**
     * The sequence number reserved for a call whose shape is not known yet (the data of a non-blocking all-to-allv,
     * bound when its count exchange finishes; decision 0108), or {@link #NONE}. Frames for it are held until then.
     * Cleared only after {@link #activeSeq} is set to it, so a transport thread that finds neither knows the call is over.
     */
    volatile long reservedSeq;
    /**
     * Sets {@link #activeSeq} with a release store: it publishes the fields written before it, which is all a
     * transport thread needs. A volatile store would add a full fence to every call's start and end, each waiting for
     * the call's stores to node-mates' lines to drain (issue 21); nothing reads back in a Dekker handshake with it.
     */
    void setActive(long seq) {
        ACTIVE_SEQ.setRelease(this, seq);
    }

    /** A label for failure messages (what the call is part of), or null. */
    String purpose;
    /** The sequence number of the call that last held this slot (done, failed or in flight). Driver thread. */
    long heldSeq;
    /** Whether the call of {@link #heldSeq} finished with every op run and every send delivered. Driver thread. */
    boolean done;

    Collective collective;
    Shape shape;
    CompiledProgram program;
    /** The call's type and operator for its Reduce steps; null when it combines nothing. */
    Reduction reduction;
    /** The frame header's collective field: the code, with the type and operator above it. */
    int operands;
    /**
     * When the call's deadline clock started: at the first look of a wait or test that found nothing to do, not at
     * posting (a call that finishes without idling reads no clock). The deadline is {@code RAILCOLL_TIMEOUT_MS} after
     * it. Valid once {@link #clockStarted}.
     */
    long startNs;
    boolean clockStarted;
    final MemorySegment[] buffers = new MemorySegment[Buffer.values().length];
    long[] slotBytes = new long[16];
    int[] slotFrames = new int[16];
    /** Header fields copied into every frame this call puts (its own, since several calls put at once). */
    final FrameHeader meta = new FrameHeader();
    /** The 24-bit digest of what this call is, which its node steps' raises carry (see NodeSteps#callDigest). */
    long digest;
    /** Frames this call put that a transport may still read from its buffers. */
    final SendCompletion sends = new SendCompletion();
    /** The next op of the program to run. */
    int nextOp;
    /** True while this call's MULTICAST at {@link #nextOp} is posted to the multicast stream and not yet delivered. */
    boolean multicastPosted;
    /** A call with node-buffer steps: the earlier such call every node-mate must have finished first (0: none). */
    long nodeGateSeq;
    /** The half of the node buffer this call's node reads and writes address (decision 0186), or null: none. */
    MemorySegment nodeBuffer;
    /** Whether the node-buffer gate was passed (or is not needed). */
    boolean nodeGateOpen;
    /** Whether this call announced its buffers to its node-mates yet (decision 0143). */
    boolean announced;
    /** The completion view handed out for this call, or null when none was asked for. */
    CompletableFuture<Void> future;
    /**
     * Where RECV, held in this slot's memory, is copied once every op has run (a non-blocking call on buffers the
     * transports cannot reach: arrays other than byte[]); null when RECV is the caller's own.
     */
    MemorySegment resultTo;
    /**
     * Given RECV, held in this slot's memory, once every op has run (a non-blocking v-variant unpacking its blocks to
     * the caller's displacements, or a count exchange binding the call it serves; decision 0108); null for none.
     */
    Consumer<MemorySegment> onResult;

    /**
     * Memory of this slot: TEMP of its programs, a copy of SEND for calls that reduce in place, and RECV of calls whose
     * result is copied out when they finish. Kept and grown by doubling, so a slot allocates only for a larger call.
     */
    private final Arena arena;
    private MemorySegment temp = MemorySegment.NULL;
    private MemorySegment staged = MemorySegment.NULL;
    private MemorySegment stagedRecv = MemorySegment.NULL;
    /** The last views handed out of the memory above: a loop of like calls gets the same one again, allocating none. */
    private MemorySegment tempView = MemorySegment.NULL;
    private MemorySegment stagedView = MemorySegment.NULL;
    private MemorySegment stagedRecvView = MemorySegment.NULL;

    Posting(Arena arena) {
        this.arena = arena;
    }

    /** Resets the counters for {@code program} (its slots), growing them when it has more slots than any before. */
    void resetSlots(CompiledProgram program) {
        if (slotBytes.length < program.slots) {
            slotBytes = new long[Math.max(program.slots, slotBytes.length * 2)];
            slotFrames = new int[slotBytes.length];
        }
        Arrays.fill(slotBytes, 0, program.slots, 0L);
        Arrays.fill(slotFrames, 0, program.slots, 0);
    }

    /** {@code bytes} of this slot's TEMP memory, kept and grown by doubling. */
    MemorySegment temp(long bytes) {
        if (bytes == 0) {
            return MemorySegment.NULL;
        }
        if (temp.byteSize() < bytes) {
            temp = arena.allocate(Math.max(bytes, temp.byteSize() * 2), 64);
            tempView = temp;
        }
        if (tempView.byteSize() != bytes) {
            tempView = temp.asSlice(0, bytes);
        }
        return tempView;
    }

    /** A copy of {@code src}'s first {@code bytes} in this slot's memory: SEND of a call that reduces in place. */
    MemorySegment stage(MemorySegment src, long bytes) {
        MemorySegment s = stageSend(bytes);
        MemorySegment.copy(src, 0, s, 0, bytes);
        return s;
    }

    /** {@code bytes} of this slot's memory for SEND, for the caller to fill (a v-variant packing its blocks). */
    MemorySegment stageSend(long bytes) {
        if (staged.byteSize() < bytes) {
            staged = arena.allocate(Math.max(bytes, staged.byteSize() * 2), 64);
            stagedView = staged;
        }
        if (stagedView.byteSize() != bytes) {
            stagedView = staged.asSlice(0, bytes);
        }
        return stagedView;
    }

    /** Whether a call holds this slot: in flight, or reserved for a call bound later. */
    boolean busy() {
        return activeSeq != NONE || reservedSeq != NONE;
    }

    /** Whether call {@code seq} holds this slot, in flight or reserved. */
    boolean holds(long seq) {
        return activeSeq == seq || reservedSeq == seq;
    }

    /** {@code bytes} of this slot's memory for RECV, whose contents {@link #resultTo} receives when the call finishes. */
    MemorySegment stageRecv(long bytes) {
        if (stagedRecv.byteSize() < bytes) {
            stagedRecv = arena.allocate(Math.max(bytes, stagedRecv.byteSize() * 2), 64);
            stagedRecvView = stagedRecv;
        }
        if (stagedRecvView.byteSize() != bytes) {
            stagedRecvView = stagedRecv.asSlice(0, bytes);
        }
        return stagedRecvView;
    }

    boolean slotComplete(int s) {
        long len = program.slotLen[s];
        return (long) LONGS.getAcquire(slotBytes, s) == len && (len > 0 || (int) INTS.getAcquire(slotFrames, s) > 0);
    }

    long slotArrived(int s) {
        return (long) LONGS.getAcquire(slotBytes, s);
    }

    /** Counts a frame of {@code bytes} into slot {@code s}; returns the slot's bytes now. */
    long landed(int s, long bytes) {
        INTS.getAndAdd(slotFrames, s, 1);
        return (long) LONGS.getAndAdd(slotBytes, s, bytes) + bytes;
    }

    /** Whether every op has run; the call is done once its sends are delivered as well. */
    boolean opsDone() {
        return nextOp >= program.ops();
    }

    /** Whether this call still has a put to {@code peer} to issue (a later call's put to it must wait: its frames would overtake). */
    boolean putsLeftTo(int peer) {
        return nextOp <= program.lastPutTo(peer);
    }

    /** Whether this call still has a multicast to run or finish (a later call's must wait: one stream, call order). */
    boolean multicastsLeft() {
        return nextOp <= program.lastMulticast;
    }

    /** Drops the references to the caller's buffers and the call's objects once the call is over. */
    void release() {
        multicastPosted = false;
        Arrays.fill(buffers, null);
        reduction = null;
        future = null;
        resultTo = null;
        onResult = null;
        purpose = null;
    }
}
