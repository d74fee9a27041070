package io.railcoll.transport.shm;

import io.railcoll.memory.CacheLines;
import io.railcoll.memory.Doorbell;

/**
 * Where everything lives in a node region of {@code L = localSize} ranks. Pure arithmetic;
 * immutable and thread-safe.
 *
 * <pre>
 * offset               size                  area
 * 0                    4096                  header, see {@link RegionHeader}
 * attachOffset         L x 128               attach slot of local rank r at attachOffset + 128 r:
 *                                              +0 pid, +8 start time (ms), +16 address of its
 *                                              mapping, +24 state (0 absent, 1 attached,
 *                                              2 detached, 3 gave up during start-up;
 *                                              release-written last)
 * doorbellOffset       L x 128               doorbell of local rank r, see {@link Doorbell}
 * ringControlOffset    P x 256               ring control of pair p: +0 tail (writer's line),
 *                                              +128 head (reader's line); P = L (L - 1)
 * ringDataOffset       P x ringBytes         ring data of pair p (page aligned)
 * stepFlagsOffset      L x 23 x 64           node-step words of local rank r: flag f at stepFlagsOffset +
 *                                              64 (23 r + f), f = 0..3, then its done word (f = 4), then
 *                                              16 call words (f = 5..20), then two lines of raises before
 *                                              (f = 21, 22); a flag's line: +0 value, +8 the raising call's
 *                                              digest (decision 0200), +16 and +40 the bytes a raise of an
 *                                              even and an odd call carries (24 each, decision 0202); flag
 *                                              f's three raises before its latest, newest first, at +32 f of
 *                                              the two lines (decision 0242); see {@link NodeStepArea}
 * stepAnnounceOffset   L x 64                buffers local rank r announced for single-copy node steps: call
 *                                              (long, release-written last), pid, SEND address, SEND bytes, RECV
 *                                              address, RECV bytes; see {@link NodeStepArea} (decision 0143)
 * stepBufferOffset     STEP_BUFFER_BYTES     node-step buffer: half 0, half 1 (page aligned), see {@link NodeStepArea}
 * totalBytes
 * </pre>
 *
 * <p>One ring per ordered pair (a to b) rather than one per receiver: every ring then has exactly
 * one writer and one reader, so it needs no atomics beyond release/acquire and no locks; the
 * price is L(L-1) rings, which for 16 ranks and 256 KiB rings is 60 MiB of address space, of
 * which only touched pages cost memory. Pair index of (a, b), a != b:
 * {@code a (L - 1) + (b < a ? b : b - 1)}.
 *
 * @param localSize ranks on the node, 1..256
 * @param ringBytes bytes per ring, a power of two >= 4096
 */
public record RegionLayout(int localSize, int ringBytes) {
    /** Largest node this layout supports; the ring count grows with its square. */
    public static final int MAX_LOCAL_SIZE = 256;
    public static final long HEADER_BYTES = CacheLines.PAGE_BYTES;
    public static final long ATTACH_SLOT_BYTES = CacheLines.SLOT_BYTES;
    public static final long RING_CONTROL_BYTES = 2 * CacheLines.SLOT_BYTES;

    static final long ATTACH_PID = 0;
    static final long ATTACH_START_MILLIS = 8;
    static final long ATTACH_MAPPING_ADDRESS = 16;
    static final long ATTACH_STATE = 24;
    static final long STATE_ABSENT = 0;
    static final long STATE_ATTACHED = 1;
    static final long STATE_DETACHED = 2;
    static final long STATE_ABANDONED = 3;

    /**
     * Bytes of the node-step buffer: two halves, each what schedules with node steps may address (decision 0101),
     * calls taking them by the parity of their sequence number (decision 0186).
     */
    public static final long STEP_BUFFER_BYTES = 2L << 21;
    /** Call words per rank in the node-step flags area: what call seq mod 16 was (see {@link NodeStepArea}). */
    public static final int STEP_CALL_WORDS = 16;
    /**
     * Words per rank in the node-step flags area: four flags, the done word and the call words, a line each, then two
     * lines that keep each flag's raises before its latest (decision 0242).
     */
    public static final int STEP_WORDS = 5 + STEP_CALL_WORDS + 2;
    /** The first of the two lines of raises before (see {@link #STEP_WORDS}). */
    public static final int STEP_RAISED_BEFORE_WORD = 5 + STEP_CALL_WORDS;

    public RegionLayout {
        if (localSize < 1 || localSize > MAX_LOCAL_SIZE) {
            throw new IllegalArgumentException("localSize must be in [1, " + MAX_LOCAL_SIZE + "], got " + localSize);
        }
        if (Integer.bitCount(ringBytes) != 1 || ringBytes < CacheLines.PAGE_BYTES) {
            throw new IllegalArgumentException("ringBytes must be a power of two >= 4096, got " + ringBytes);
        }
    }

    /** Ordered pairs, hence rings. */
    public int pairCount() {
        return localSize * (localSize - 1);
    }

    public long attachOffset() {
        return HEADER_BYTES;
    }

    public long attachSlot(int localRank) {
        return attachOffset() + checkRank(localRank) * ATTACH_SLOT_BYTES;
    }

    public long doorbellOffset() {
        return attachOffset() + localSize * ATTACH_SLOT_BYTES;
    }

    public long doorbell(int localRank) {
        return doorbellOffset() + checkRank(localRank) * Doorbell.BYTES;
    }

    public long ringControlOffset() {
        return doorbellOffset() + localSize * Doorbell.BYTES;
    }

    public long ringDataOffset() {
        return CacheLines.alignUp(ringControlOffset() + (long) pairCount() * RING_CONTROL_BYTES, CacheLines.PAGE_BYTES);
    }

    public long stepFlagsOffset() {
        return ringDataOffset() + (long) pairCount() * ringBytes;
    }

    /** Offset of word {@code word} (a flag 0..3, or 4: the done word) of local rank {@code localRank}. */
    public long stepWord(int localRank, int word) {
        if (word < 0 || word >= STEP_WORDS) {
            throw new IllegalArgumentException("node-step word " + word + " outside [0, " + STEP_WORDS + ")");
        }
        return stepFlagsOffset() + ((long) checkRank(localRank) * STEP_WORDS + word) * CacheLines.LINE_BYTES;
    }

    /** Offset of the line where local rank {@code localRank} announces its call buffers (decision 0143). */
    public long stepAnnounceOffset(int localRank) {
        return stepFlagsOffset() + ((long) localSize * STEP_WORDS + checkRank(localRank)) * CacheLines.LINE_BYTES;
    }

    public long stepBufferOffset() {
        return CacheLines.alignUp(stepFlagsOffset() + (long) localSize * (STEP_WORDS + 1) * CacheLines.LINE_BYTES,
                CacheLines.PAGE_BYTES);
    }

    public long totalBytes() {
        return CacheLines.alignUp(stepBufferOffset() + STEP_BUFFER_BYTES, CacheLines.PAGE_BYTES);
    }

    /** Index of the ring from local rank {@code from} to local rank {@code to}. */
    public int pairIndex(int from, int to) {
        checkRank(from);
        checkRank(to);
        if (from == to) {
            throw new IllegalArgumentException("no ring from local rank " + from + " to itself");
        }
        return from * (localSize - 1) + (to < from ? to : to - 1);
    }

    public long ringControl(int from, int to) {
        return ringControlOffset() + (long) pairIndex(from, to) * RING_CONTROL_BYTES;
    }

    public long ringData(int from, int to) {
        return ringDataOffset() + (long) pairIndex(from, to) * ringBytes;
    }

    private int checkRank(int localRank) {
        if (localRank < 0 || localRank >= localSize) {
            throw new IllegalArgumentException("local rank " + localRank + " outside [0, " + localSize + ")");
        }
        return localRank;
    }
}
