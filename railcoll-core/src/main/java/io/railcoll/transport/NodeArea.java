package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * The capability a node's shared memory offers the engine's node steps (decision 0101): a buffer every rank of the
 * node maps, and per rank a few flags that only their owner raises and a done word. Values only grow: the engine
 * writes {@code seq << 20 | count} (the call's sequence number and how often the flag was raised in it), so a flag
 * left by an earlier call never satisfies a later call's wait. It holds no collective logic: what is copied where and
 * who waits for whom is the schedule's.
 *
 * <p>Threading: the owner thread raises its own flags and writes the buffer; any thread may read.
 */
public interface NodeArea {

    /** This rank's index among the ranks of its node. */
    int localRank();

    /**
     * Half {@code half} (0 or 1) of the node buffer, shared by the node's ranks: each half is as large as a program
     * may address ({@code schedule.NodeBuffer.BYTES}), and the engine gives a call the half of its sequence number's
     * parity, so that a call's writes wait only for the call before the previous (decision 0186).
     */
    MemorySegment buffer(int half);

    /** The word {@code flag} of local rank {@code localRank} (acquire). */
    long flag(int localRank, int flag);

    /**
     * Sets this rank's word {@code flag} to {@code value} (release) and wakes the node-mates that sleep. {@code call}
     * (the raising call's digest, as {@link #noteCall}) goes into the word's own cache line first, so that a node-mate
     * that saw the raise checks the call with no second line to fetch ({@link #raisedCall}).
     */
    void raise(int flag, long value, long call);

    /**
     * As {@link #raise(int, long, long)}, carrying {@code src[srcOffset..srcOffset+length)} (at most
     * {@link #PAYLOAD_BYTES}) in the flag's own cache line (decision 0202): the bytes go into the area of the raising
     * call's parity ({@code value >>> 20 & 1}) before the flag's release store, so a node-mate that saw the raise
     * reads them ({@link #readPayload}) from the line it has just fetched. The caller sees to it that no node-mate
     * still reads that area for the call two before (the engine's node-buffer gate, as for the buffer's halves).
     */
    void raise(int flag, long value, long call, MemorySegment src, long srcOffset, long length);

    /**
     * Copies {@code length} bytes that local rank {@code localRank} carried in its raise of {@code flag} in a call of
     * parity {@code parity} into {@code dst[dstOffset..]}. Read after the flag itself (acquire) shows that raise.
     */
    void readPayload(int localRank, int flag, int parity, MemorySegment dst, long dstOffset, long length);

    /** Bytes a raise may carry in its flag's line ({@code schedule.NodeBuffer.PAYLOAD_BYTES}, decision 0202). */
    int PAYLOAD_BYTES = 24;

    /**
     * The digest that local rank {@code localRank} raised its word {@code flag} with in call {@code seq}, or -1 where
     * the line no longer shows that call (the node-mate raised the word again in a later call). Read after the flag
     * itself (acquire), so a raise seen there is seen here too.
     */
    long raisedCall(int localRank, int flag, long seq);

    /** {@link #raisedBefore}: the node-mate raised the flag in no call of that number (its raises skip it). */
    long SKIPPED = -2;

    /**
     * What local rank {@code localRank}'s raises of {@code flag} before its latest one tell about call {@code seq},
     * where the latest came in a later call (decision 0242): every raise that opens a call's raises of a flag keeps
     * the call words of that flag's last three raises before it (in three calls). The digest the node-mate raised the
     * flag with in call {@code seq} where one of those was that call's; {@link #SKIPPED} where the newest of them
     * before {@code seq} came in an earlier call (the node-mate raised the flag in no call of that number); -1 where
     * it cannot tell (all three came after {@code seq}). Read after the flag itself (acquire). Flags 0..3.
     */
    long raisedBefore(int localRank, int flag, long seq);

    /**
     * Sleeps at most {@code maxWaitNs} until local rank {@code localRank}'s word {@code flag} reaches {@code value}
     * or anything wakes this rank (a ring of its doorbell); returns at once if the word already has. With
     * {@code onlyItsRaises}, node-mates other than {@code localRank} do not ring this rank's doorbell when they raise
     * (other rings still wake it): for a caller that nothing else in the node steps can move on (decision 0188).
     */
    void await(int localRank, int flag, long value, long maxWaitNs, boolean onlyItsRaises);

    /** Which of a rank's call buffers an announcement and a peer access name: SEND. */
    int SEND = 0;
    /** RECV. */
    int RECV = 1;

    /**
     * Whether this node agreed at start-up that every rank may read and write every node-mate's memory with
     * cross-memory attach (decision 0143); peer accesses throw where it did not.
     */
    boolean peerAccess();

    /**
     * Announces this rank's buffers of call {@code seq} to its node-mates: their addresses and sizes and this
     * process's id, tagged with {@code seq} so that a node-mate never uses an earlier call's. Both must be native
     * segments. Visible to a node-mate once a later {@link #raise} is (the raise is the release).
     */
    void announce(long seq, MemorySegment send, MemorySegment recv);

    /**
     * Copies {@code length} bytes of local rank {@code localRank}'s buffer {@code buffer} ({@link #SEND} or
     * {@link #RECV}) of call {@code seq} at {@code offset} into the native {@code dst[dstOffset..]}, in one copy.
     *
     * @throws IllegalStateException when that rank's announcement is not of call {@code seq} (a stale address), or
     *                               the range lies outside the announced buffer
     */
    void peerRead(int localRank, long seq, int buffer, long offset, MemorySegment dst, long dstOffset, long length);

    /** Copies the native {@code src[srcOffset..]} into local rank {@code localRank}'s buffer, as {@link #peerRead}. */
    void peerWrite(MemorySegment src, long srcOffset, int localRank, long seq, int buffer, long offset, long length);

    /** Peer reads and writes this rank made so far (diagnostics and tests). */
    long peerTransfers();

    /**
     * Announces what this rank's call {@code seq} is ({@code call}: a digest of its collective, algorithm, size and
     * root, below 2^24), before any of its raises, so that a node-mate that awaited one of them can check that both
     * ranks run the same call (node steps carry no frame header to compare).
     */
    void noteCall(long seq, long call);

    /**
     * What local rank {@code localRank} announced for call {@code seq}, or -1 where its word no longer (or not yet)
     * shows that call: the words go round 16 calls.
     */
    long notedCall(int localRank, long seq);

    /** Whether local rank {@code localRank} is alive and attached. */
    boolean alive(int localRank);
}
