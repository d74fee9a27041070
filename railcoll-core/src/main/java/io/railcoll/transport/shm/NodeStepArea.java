package io.railcoll.transport.shm;

import io.railcoll.memory.Doorbell;
import io.railcoll.memory.SharedAccess;
import io.railcoll.transport.NodeArea;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The node region's offer to the engine's node steps ({@link NodeArea}, decision 0101): the node-step buffer and the
 * node-step words of {@link RegionLayout}, with the node's doorbells to wake sleepers. A raise rings every node-mate's
 * doorbell that has a sleeper (one fence, and a futex wake only where someone sleeps), so a rank waiting for a flag
 * sleeps, rather than spins, when ranks outnumber processors.
 *
 * <p>Single-copy node steps (decision 0143): a rank announces its call buffers in its line of the announce area
 * (pid, addresses, sizes, then the call's sequence number, release-written last), and node-mates read and write them
 * with {@link Cma} after checking that the announcement is of their call. Cross-memory attach is used only once the
 * node agreed at start-up that every rank may reach every node-mate ({@link #enablePeerAccess}).
 *
 * <p>Threading: the owner thread raises, sleeps, announces and copies (one at a time: the copier's iovecs are
 * reused); reads from any thread. Lifetime: its {@link NodeRegion}'s.
 */
final class NodeStepArea implements NodeArea {
    private final MemorySegment segment;
    private final RegionLayout layout;
    private final int me;
    private final Doorbell[] bells;
    private final PeerWatch peers;
    private final MemorySegment[] halves;
    private final Cma.Copier copier = new Cma.Copier(Arena.ofAuto());
    private volatile boolean peerAccess;
    /** Peer reads and writes made so far (written by the owner thread only). */
    private volatile long peerTransfers;
    /** Offset in a rank's announce line of its word in the node's agreement on single copy: 0 until it said. */
    private static final long AGREEMENT = 56;
    /**
     * Offset in a rank's announce line of whose raise alone it sleeps for in {@link #await}: 1 + that local rank, or
     * 0 (any raise wakes it). Written by the owner only.
     */
    private static final long AWAITS = 48;
    private static final long YES = 2;
    private static final long NO = 1;
    /** A call word holds the call's sequence number (its low 40 bits) above its 24-bit digest. */
    private static final long CALL_MASK = (1L << 24) - 1;
    private static final long SEQ_MASK = (1L << 40) - 1;
    /** A flag's value is {@code seq << 20 | count} ({@link NodeArea}). */
    private static final int FLAG_COUNT_BITS = 20;
    /**
     * Offset in a flag's line of the digest of the call that raised it last, as a call word: a node-mate that saw
     * the raise reads it from the line it already fetched (decision 0200).
     */
    private static final long RAISED_CALL = 8;
    /**
     * Offset in a flag's line of the bytes a raise carries (decision 0202): two areas of {@link NodeArea#PAYLOAD_BYTES},
     * one per parity of the raising call's sequence number, so a call writes only the area the call two before used.
     */
    private static final long PAYLOAD = 16;
    /** Flags 0..3 are awaited; word 4 is the done word, which keeps no raises before. */
    private static final int DONE_WORD = 4;
    /**
     * Raises before its latest that a flag keeps (decision 0242), newest first, as call words: enough for a node-mate
     * whose wait a later call's raise met to tell, in a correct program, whether this rank raised the flag in the
     * awaited call (two calls with data in the node buffer, one on each half, and the call it then waits in).
     */
    static final int RAISES_BEFORE = 3;

    NodeStepArea(MemorySegment segment, RegionLayout layout, int me, Doorbell[] bells, PeerWatch peers) {
        this.segment = segment;
        this.layout = layout;
        this.me = me;
        this.bells = bells;
        this.peers = peers;
        long half = RegionLayout.STEP_BUFFER_BYTES / 2;
        this.halves = new MemorySegment[] {segment.asSlice(layout.stepBufferOffset(), half),
                segment.asSlice(layout.stepBufferOffset() + half, half)};
    }

    @Override
    public int localRank() {
        return me;
    }

    @Override
    public MemorySegment buffer(int half) {
        return halves[half];
    }

    @Override
    public long flag(int localRank, int flag) {
        return SharedAccess.getLongAcquire(segment, layout.stepWord(localRank, flag));
    }

    /**
     * Sets the flag and rings the doorbell of every node-mate that sleeps, unless it sleeps for another node-mate's
     * raise alone (its {@link #AWAITS} word): where ranks outnumber processors, a wake-up that finds nothing to do
     * costs a scheduling slot that the rank the node waits for may need (decision 0188).
     */
    @Override
    public void raise(int flag, long value, long call) {
        raise(flag, value, call, null, 0, 0);
    }

    @Override
    public void raise(int flag, long value, long call, MemorySegment src, long srcOffset, long length) {
        long word = layout.stepWord(me, flag);
        if (length > 0) {
            if (length > PAYLOAD_BYTES) {
                throw new IllegalArgumentException("a node flag carries at most " + PAYLOAD_BYTES + " bytes, not "
                        + length);
            }
            // Plain stores ahead of the flag's release store below: a reader that acquires the flag sees them.
            MemorySegment.copy(src, srcOffset, segment, payloadOffset(word, value >>> FLAG_COUNT_BITS & 1), length);
        }
        long seq = value >>> FLAG_COUNT_BITS & SEQ_MASK;
        if (flag < DONE_WORD) {
            // A call's first raise of the flag: the raise it replaces in the line becomes the newest before (decision
            // 0242), written before the line's call word (release) so a reader that sees this call there sees it.
            long last = segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, word + RAISED_CALL);
            if (last >>> 24 != seq) {
                long before = raisedBeforeOffset(me, flag);
                // Oldest first, each word taking its newer neighbour's: a reader that mixes two raises' words sees
                // two alike, and reads again. Release stores keep that order (on x86 they cost what plain ones do).
                for (int i = RAISES_BEFORE - 1; i > 0; i--) {
                    SharedAccess.setLongRelease(segment, before + 8L * i,
                            segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, before + 8L * (i - 1)));
                }
                SharedAccess.setLongRelease(segment, before, last);
            }
        }
        // The call's digest in the flag's line, before the flag's release store: one line tells a reader both.
        SharedAccess.setLongRelease(segment, word + RAISED_CALL, seq << 24 | call & CALL_MASK);
        SharedAccess.setLongRelease(segment, word, value);
        // Dekker with await: the flag's store, then the sleeper counts and AWAITS words; the sleeper writes AWAITS,
        // arms (a full barrier), then re-reads the flag. Either it sees the flag or this sees its announcement.
        VarHandle.fullFence();
        for (int r = 0; r < bells.length; r++) {
            if (r != me && bells[r].waiters() != 0) {
                long awaits = SharedAccess.getLongAcquire(segment, layout.stepAnnounceOffset(r) + AWAITS);
                if (awaits == 0 || awaits == me + 1) {
                    bells[r].ring();
                }
            }
        }
    }

    @Override
    public void readPayload(int localRank, int flag, int parity, MemorySegment dst, long dstOffset, long length) {
        if (length < 0 || length > PAYLOAD_BYTES) {
            throw new IllegalArgumentException("a node flag carries at most " + PAYLOAD_BYTES + " bytes, not " + length);
        }
        MemorySegment.copy(segment, payloadOffset(layout.stepWord(localRank, flag), parity & 1), dst, dstOffset, length);
    }

    private static long payloadOffset(long word, long parity) {
        return word + PAYLOAD + parity * PAYLOAD_BYTES;
    }

    @Override
    public long raisedCall(int localRank, int flag, long seq) {
        long word = segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, layout.stepWord(localRank, flag) + RAISED_CALL);
        return word >>> 24 == (seq & SEQ_MASK) ? word & CALL_MASK : -1;
    }

    /**
     * Reads the latest raise and the ones before it together: the writer stores the ones before (oldest first), then
     * the latest (release), so a read that mixes two raises finds the call numbers not strictly falling (a word
     * holding what its newer neighbour held) and reads again, a few times at most.
     */
    @Override
    public long raisedBefore(int localRank, int flag, long seq) {
        if (flag < 0 || flag >= DONE_WORD) {
            throw new IllegalArgumentException("only flags 0.." + (DONE_WORD - 1) + " keep their raises before, not "
                    + flag);
        }
        long latestAt = layout.stepWord(localRank, flag) + RAISED_CALL;
        long beforeAt = raisedBeforeOffset(localRank, flag);
        long want = seq & SEQ_MASK;
        attempts:
        for (int attempt = 0; attempt < 4; attempt++) {
            long newer = SharedAccess.getLongAcquire(segment, latestAt) >>> 24;
            if (newer <= want) {
                return -1; // the latest is this call's, or older: not this method's question
            }
            long answer = -1;
            for (int i = 0; i < RAISES_BEFORE; i++) {
                long word = SharedAccess.getLongAcquire(segment, beforeAt + 8L * i);
                long at = word >>> 24;
                if (at >= newer && newer != 0) {
                    continue attempts; // mixed: the node-mate raised again while this read
                }
                if (answer == -1 && at <= want) {
                    answer = at == want ? word & CALL_MASK : SKIPPED;
                }
                newer = at;
            }
            return answer;
        }
        return -1;
    }

    private long raisedBeforeOffset(int localRank, int flag) {
        // 32 bytes a flag: flags 0 and 1 in the first line, 2 and 3 in the second.
        return layout.stepWord(localRank, RegionLayout.STEP_RAISED_BEFORE_WORD) + 32L * flag;
    }

    @Override
    public void await(int localRank, int flag, long value, long maxWaitNs, boolean onlyItsRaises) {
        Doorbell own = bells[me];
        long awaits = layout.stepAnnounceOffset(me) + AWAITS;
        if (onlyItsRaises) {
            SharedAccess.setLongRelease(segment, awaits, localRank + 1); // before arm(), whose add is a full barrier
        }
        int key = own.arm();
        try {
            // Re-check after announcing: a raise that came before the announcement found no sleeper.
            if (flag(localRank, flag) >= value) {
                return;
            }
            own.await(key, maxWaitNs);
        } finally {
            own.disarm();
            if (onlyItsRaises) {
                SharedAccess.setLongRelease(segment, awaits, 0);
            }
        }
    }

    /**
     * The node's agreement on single copy (decision 0143): writes whether this rank may reach every node-mate with
     * cross-memory attach into the last word of its announce line, waits (at most {@code timeoutNs}) until every
     * node-mate wrote its own, and enables peer accesses when all may. Every rank of the node gets the same answer.
     *
     * @throws ShmException {@code TIMED_OUT} naming the node-mates that did not answer
     */
    boolean agreePeerAccess(boolean mine, long timeoutNs) {
        SharedAccess.setLongRelease(segment, layout.stepAnnounceOffset(me) + AGREEMENT, mine ? YES : NO);
        Doorbell.ringAll(bells, me);
        long deadline = System.nanoTime() + timeoutNs;
        int local = bells.length;
        boolean all = true;
        for (int r = 0; r < local; r++) {
            long word;
            while ((word = SharedAccess.getLongAcquire(segment, layout.stepAnnounceOffset(r) + AGREEMENT)) == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new ShmException(ShmException.Reason.TIMED_OUT, "local rank " + r + " did not say within "
                            + timeoutNs / 1_000_000 + " ms whether it may reach its node-mates by cross-memory attach");
                }
                if (!peers.isAlive(r)) {
                    throw new ShmException(ShmException.Reason.PEER_LOST, "local rank " + r + " left before it said"
                            + " whether it may reach its node-mates by cross-memory attach");
                }
                java.util.concurrent.locks.LockSupport.parkNanos(50_000);
            }
            all &= word == YES;
        }
        peerAccess = all;
        return all;
    }

    @Override
    public boolean peerAccess() {
        return peerAccess;
    }

    @Override
    public void announce(long seq, MemorySegment send, MemorySegment recv) {
        if (!send.isNative() || !recv.isNative()) {
            throw new IllegalArgumentException("only native buffers can be announced to node-mates (call " + seq + ")");
        }
        long line = layout.stepAnnounceOffset(me);
        segment.set(java.lang.foreign.ValueLayout.JAVA_LONG, line + 8, ProcessHandle.current().pid());
        segment.set(java.lang.foreign.ValueLayout.JAVA_LONG, line + 16, send.address());
        segment.set(java.lang.foreign.ValueLayout.JAVA_LONG, line + 24, send.byteSize());
        segment.set(java.lang.foreign.ValueLayout.JAVA_LONG, line + 32, recv.address());
        segment.set(java.lang.foreign.ValueLayout.JAVA_LONG, line + 40, recv.byteSize());
        SharedAccess.setLongRelease(segment, line, seq);
    }

    @Override
    public void peerRead(int localRank, long seq, int which, long offset, MemorySegment dst, long dstOffset,
                         long length) {
        long address = announced(localRank, seq, which, offset, length);
        copier.read(pidOf(localRank), address, dst, dstOffset, length);
        peerTransfers++;
    }

    @Override
    public void peerWrite(MemorySegment src, long srcOffset, int localRank, long seq, int which, long offset,
                          long length) {
        long address = announced(localRank, seq, which, offset, length);
        copier.write(pidOf(localRank), address, src, srcOffset, length);
        peerTransfers++;
    }

    /** The address of {@code [offset, offset + length)} of local rank {@code localRank}'s announced buffer. */
    private long announced(int localRank, long seq, int which, long offset, long length) {
        if (!peerAccess) {
            throw new IllegalStateException("a single-copy node step needs cross-memory attach between node-mates,"
                    + " which this node did not agree on at start-up (" + Cma.ptraceDiagnosis() + ")");
        }
        long line = layout.stepAnnounceOffset(localRank);
        long shown = SharedAccess.getLongAcquire(segment, line);
        if (shown != seq) {
            throw new IllegalStateException("stale address: local rank " + localRank + " announced the buffers of call "
                    + shown + ", and this is call " + seq + " (a peer access before the owner's Publish)");
        }
        long base = segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, line + 16L + 16L * which);
        long size = segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, line + 24L + 16L * which);
        if (offset < 0 || length < 0 || offset > size - length) {
            throw new IllegalStateException("peer access [" + offset + ", " + (offset + length) + ") outside local rank "
                    + localRank + "'s " + (which == SEND ? "SEND" : "RECV") + " of " + size + " bytes in call " + seq);
        }
        return base + offset;
    }

    private long pidOf(int localRank) {
        return segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, layout.stepAnnounceOffset(localRank) + 8);
    }

    @Override
    public long peerTransfers() {
        return peerTransfers;
    }

    @Override
    public void noteCall(long seq, long call) {
        SharedAccess.setLongRelease(segment, callWord(me, seq), seq << 24 | call & CALL_MASK);
    }

    @Override
    public long notedCall(int localRank, long seq) {
        long word = SharedAccess.getLongAcquire(segment, callWord(localRank, seq));
        return word >>> 24 == (seq & SEQ_MASK) ? word & CALL_MASK : -1;
    }

    private long callWord(int localRank, long seq) {
        return layout.stepWord(localRank, 5 + (int) (seq & (RegionLayout.STEP_CALL_WORDS - 1)));
    }

    @Override
    public boolean alive(int localRank) {
        return peers.isAlive(localRank);
    }
}
