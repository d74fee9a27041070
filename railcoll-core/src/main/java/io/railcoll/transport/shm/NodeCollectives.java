package io.railcoll.transport.shm;

import io.railcoll.memory.CacheLines;
import io.railcoll.memory.Doorbell;
import io.railcoll.memory.Idler;
import io.railcoll.memory.NodeCpus;
import io.railcoll.memory.SharedAccess;
import io.railcoll.memory.WaitStrategy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * Gather, broadcast, all-gather and barrier among the ranks of one node through the node buffer
 * of the region: the intra-node phases of the SMP-aware algorithms (Qian and Afsahi, papers 000
 * section 4.2 and 5.2, and 001; Qian, Rashti and Afsahi, paper 002 table 1).
 *
 * <h2>Protocol</h2>
 * Every call is cut into <em>steps</em>, numbered 1, 2, 3, ... across calls; all ranks run the
 * same steps because the step count depends only on the sizes, which must agree. Step {@code s}
 * uses half {@code h = s mod 2} of the node buffer, so one half can be filled while the other is
 * still being drained (double buffering). Each half has two node-wide counters that only grow:
 * <ul>
 *   <li>{@code arrivals[h]}: +1 by each contributor once its piece of the step is in the half;</li>
 *   <li>{@code drains[h]}: +1 by each reader once it has copied the step's pieces out.</li>
 * </ul>
 * Per step a kind has A contributors and D readers (barrier: L and 1, the one drain being local
 * rank 0's release of the others once it has seen every arrival, so it leaves the barrier first; all-gather: L and L;
 * gather: the L-1 non-roots and the root; broadcast: the root and the L-1 non-roots). Every rank
 * keeps, per half, the cumulative targets the counters reach when a step is complete, so a step
 * is complete when {@code arrivals[h]} reaches its target, and a half is free again when
 * {@code drains[h]} reaches the target of its previous step. Rules:
 * <ol>
 *   <li>before contributing to step s a rank waits until the previous step on the same half is
 *       drained (which implies all its contributions had arrived);</li>
 *   <li>a reader waits until {@code arrivals[h]} reaches step s's target;</li>
 *   <li>whoever completes a count (its add returns the target) rings that count's node doorbell,
 *       which wakes every rank sleeping on it with one {@code FUTEX_WAKE}.</li>
 * </ol>
 * Rule 1 is what makes counters safe: a contribution to step s+2, the next user of the half, can
 * only be added once step s is drained, so it can never be counted for step s. Rule 3 means a
 * waiting rank is woken once per step, when what it waits for is complete, not once per
 * contributor: on a node with more ranks than cores, wake-ups are the cost of a small collective.
 * Counters are added with one atomic instruction and never reset, so repeated calls cannot race.
 *
 * <h2>What moves (L local ranks, M bytes per rank, H bytes per half)</h2>
 * <table>
 * <caption>Copies per call; steps = ceil(M / piece), at least 1</caption>
 * <tr><th>call</th><th>piece per step</th><th>writes into the buffer</th><th>reads out of it</th></tr>
 * <tr><td>gather</td><td>H / L per rank</td><td>M by each non-root (L-1 concurrent)</td><td>(L-1) M by the root; its own block goes straight to dst</td></tr>
 * <tr><td>broadcast</td><td>H</td><td>M by the root</td><td>M by each non-root (L-1 concurrent)</td></tr>
 * <tr><td>all-gather</td><td>H / L per rank</td><td>M by each rank</td><td>(L-1) M by each rank; its own block goes straight to dst</td></tr>
 * <tr><td>barrier</td><td>-</td><td>-</td><td>-</td></tr>
 * </table>
 * Pieces are 64-byte multiples. A message larger than the buffer streams through in steps.
 *
 * <h2>Mailboxes (small calls)</h2>
 * The counters cost several cache-line transfers per step that depend on each other (the
 * descriptor, the arrival add, the data, the drain add): on this project's machine about 0.7 us for a
 * 1-byte all-gather of two ranks on two processors, where one transfer each way would do. So an
 * all-gather of at most {@link #MAILBOX_DATA_BYTES} per rank, and a barrier on a node whose ranks do
 * not outnumber its processors, go through <em>mailboxes</em> instead: every rank owns two, used alternately by
 * its mailbox calls m = 1, 2, 3, ...; it copies its block into mailbox m mod 2, release-writes the
 * header (m mod 2^19, kind, size) last, rings the mailbox doorbell, and reads every node-mate's
 * mailbox m mod 2 once its header shows m. No counter, no drain: a rank writes mailbox m mod 2
 * again only in call m+2, after it has seen every node-mate's block of call m+1, which each wrote
 * after reading everything of call m. A header with the same m but another kind or size is a
 * mismatch. Small broadcasts and gathers use them too: the root of a broadcast writes its mailbox and
 * leaves, every other rank copies the message out and then writes its own header; the non-roots of a
 * gather write theirs and leave, the root reads them and then writes its own header. As some ranks
 * wait for nobody, the
 * rule for any mailbox call m is written out: before writing mailbox m mod 2 a rank makes sure every
 * node-mate has written its header of call m-1 (so has finished call m-2), which an all-gather or
 * barrier by mailbox already showed it. When ranks outnumber processors, barriers stay on the
 * counters: there every rank reading every node-mate's header cost more than one add and one poll
 * of a counter (measured, decision 0012); the small collectives gained there too.
 *
 * <h2>Single copy (large blocks between native buffers)</h2>
 * With {@link #enableSingleCopy} a gather, broadcast or all-gather of at least the threshold's bytes
 * per block first takes one <em>announce</em> step: every rank publishes the address it offers
 * (all-gather: its source; broadcast: its buffer; gather: the root its destination, the others
 * their sources; 0 if its buffers are not native or it cannot reach every node-mate with
 * {@link Cma}) and waits for everyone's. If every rank could, the bytes move straight between the
 * ranks' own buffers with {@code process_vm_readv}/{@code writev} (one copy instead of two through
 * the buffer: for an all-gather of L ranks, L M bytes per rank instead of (L+1) M), each rank counts
 * a drain, and the call ends when the step is drained, so no rank returns, and lets its caller reuse
 * its buffer, while a node-mate still reads or writes it.
 * <ul>
 *   <li>All-gather: each rank reads every other rank's block.</li>
 *   <li>Broadcast and gather: the root, which would otherwise wait idle while the others copy,
 *       moves the first M / L bytes of every other rank's block itself (writes them into the
 *       others' buffers; reads them out of the others' sources), while each other rank moves the
 *       rest of its own. With 2 ranks each copies half.</li>
 * </ul>
 * If any rank could not, the call goes on through the node buffer as below (the announce step was
 * the only extra cost). Whether a call takes the announce step depends only on its size and the
 * threshold, and the threshold is part of the descriptor, so node-mates with different settings
 * fail with a mismatch instead of misreading each other's steps.
 *
 * <h2>Agreement and failures</h2>
 * At the start of a call each rank publishes a descriptor (call number mod 2^20, kind, root,
 * size mod 2^32) in its slot. A rank that has waited for a step's arrivals compares the
 * descriptors of every rank in the same call with its own and fails with
 * {@link ShmException.Reason#MISMATCH} on a difference. Any rank that fails inside a node
 * collective for another reason than a lost node-mate (mismatch, time-out) writes the node's abort
 * word and rings every node doorbell, so its node-mates fail at once with a message naming it
 * instead of waiting for their deadline; a dead or departed rank is found, and named, by the
 * liveness checks of every waiter.
 *
 * <p>Threading: one thread per rank calls these methods, one call at a time. Lifetime: owned by
 * its {@link NodeRegion}. After a {@link ShmException} the instance refuses further calls: the
 * other ranks' progress is unknown, so the region must be closed.
 */
public final class NodeCollectives {
    /**
     * What a call is, in descriptors; the node collectives and the collectives other paths run by messages. Three
     * bits hold it, so reduce, reduce-scatter, scan and exscan share one kind (they never run in the node buffer, and
     * the engine's frames tell them apart).
     */
    private enum Kind {
        BARRIER("barrier"), GATHER("gather"), BROADCAST("broadcast"), ALLGATHER("allgather"), ALLTOALL("alltoall"),
        ALLREDUCE("allreduce"), PARTIAL_REDUCTION("reduce, reduce-scatter, scan or exscan"), SCATTER("scatter");

        final String label;

        Kind(String label) {
            this.label = label;
        }

        /** {@link #values()} once: a call's kind is looked up on every call. */
        private static final Kind[] ALL = values();

        static Kind of(String collective) {
            if (collective.equals("reduce") || collective.equals("reduce-scatter") || collective.equals("scan")
                    || collective.equals("exscan") || collective.equals("reduce-scatterv")) {
                return PARTIAL_REDUCTION;
            }
            if (collective.endsWith("v") && !collective.equals("reduce-scatterv")) {
                // The v-variants run by messages only; they share their uniform kind (the engine's frames tell
                // them apart, and carry their counts' digest).
                return of(collective.substring(0, collective.length() - 1));
            }
            for (Kind k : ALL) {
                if (k.label.equals(collective)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown collective '" + collective + "'");
        }
    }

    /** Descriptor bit: the call runs by messages (through the rings or rails), not in the node buffer. */
    private static final long BY_MESSAGES = 1L << 43;
    /** Descriptor bit: the call starts with the single-copy announce step. */
    private static final long SINGLE_COPY = 1L << 44;
    /** Descriptor bits from here up: the call number. */
    private static final int CALL_SHIFT = 45;
    private static final long CALL_MASK = (1L << (64 - CALL_SHIFT)) - 1;
    /** For {@link #awaitArrivals(int, int)}: every local rank contributes to the step, or every one but this one. */
    private static final int EVERY_RANK = -1;
    private static final int EVERY_OTHER_RANK = -2;
    /** How many idle rounds of a wait pass between two calls of the background work (a rail poll is a system call). */
    private static final int BACKGROUND_ROUNDS = 8;

    private final MemorySegment segment;
    private final RegionLayout layout;
    private final int me;
    private final int size;
    private final PeerWatch peers;
    private final String where;
    private final long bufferOffset;
    private final long halfBytes;
    private final long pieceBytes;
    private final long[] arrivals = new long[2];
    private final long[] drains = new long[2];
    private final long abortWord;
    private final Doorbell[] arrivalBells = new Doorbell[2];
    private final Doorbell[] drainBells = new Doorbell[2];
    private final PeerWait[] arrivalWaits = new PeerWait[2];
    private final PeerWait[] drainWaits = new PeerWait[2];
    private final WaitSite arrivalSite;
    private final WaitSite drainSite;
    private final WaitSite transferSite;
    private final WaitSite releaseSite;

    /** Per half: what {@code arrivals[h]} and {@code drains[h]} read once the last step on that half is complete. */
    private final long[] arrivalTarget = new long[2];
    private final long[] drainTarget = new long[2];

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
    private long timeoutNs;
    private boolean agreementChecked;
    /** Set when this rank fails because another one aborted: that rank has already said so to the node. */
    private boolean relayedAbort;
    /** Largest all-gather block that goes through the mailboxes. */
    public static final long MAILBOX_DATA_BYTES = RegionLayout.MAILBOX_BYTES - Long.BYTES;
    private static final long MAILBOX_DATA = Long.BYTES;

    private final Doorbell mailboxBell;
    private final PeerWait mailboxWait;
    private final WaitSite mailboxSite;
    /** Whether small gathers, broadcasts and all-gathers use the mailboxes; the same on every rank of the node. */
    private boolean mailboxes = true;
    /** Whether barriers use the mailboxes; the same on every rank of the node. */
    private boolean mailboxBarrier;
    /** Mailbox calls so far. */
    private long mailboxCalls;
    /** The last mailbox call of which this rank has seen every node-mate's header. */
    private long everyHeaderSeen;

    /** Called every few idle rounds of a wait (the caller's other duties); returns how much it did. */
    private IntSupplier backgroundWork;
    /** Smallest block that takes the single-copy announce step; {@code Long.MAX_VALUE}: none does. */
    private long singleCopyMinBytes = Long.MAX_VALUE;
    /** Smallest gather block that takes the single-copy announce step; {@code Long.MAX_VALUE}: none does. */
    private long singleCopyGatherMinBytes = Long.MAX_VALUE;
    /** Smallest broadcast that takes the single-copy announce step; {@code Long.MAX_VALUE}: none does. */
    private long singleCopyBroadcastMinBytes = Long.MAX_VALUE;
    /** Whether this rank may read every node-mate's memory (probed at start-up). */
    private boolean readsEveryNodeMate;
    private Cma.Copier singleCopier;
    /** Calls carried out single-copy so far (diagnostics and tests). */
    private long singleCopyCalls;

    NodeCollectives(MemorySegment segment, RegionLayout layout, int me, PeerWatch peers, WaitStrategy strategy,
                    String where) {
        this.segment = segment;
        this.layout = layout;
        this.me = me;
        this.size = layout.localSize();
        this.peers = peers;
        this.where = where;
        this.bufferOffset = layout.nodeBufferOffset();
        this.halfBytes = layout.halfBytes();
        this.pieceBytes = CacheLines.alignDown(halfBytes / size, CacheLines.LINE_BYTES);
        this.abortWord = layout.syncSlot(RegionLayout.SYNC_ABORT);
        for (int h = 0; h < 2; h++) {
            arrivals[h] = layout.syncSlot(RegionLayout.SYNC_ARRIVALS + h);
            drains[h] = layout.syncSlot(RegionLayout.SYNC_DRAINS + h);
            arrivalBells[h] = new Doorbell(segment, layout.syncSlot(RegionLayout.SYNC_ARRIVAL_BELLS + h));
            drainBells[h] = new Doorbell(segment, layout.syncSlot(RegionLayout.SYNC_DRAIN_BELLS + h));
            arrivalWaits[h] = new PeerWait(new Idler(arrivalBells[h], strategy), peers, true);
            drainWaits[h] = new PeerWait(new Idler(drainBells[h], strategy), peers, true);
        }
        this.mailboxBell = new Doorbell(segment, layout.syncSlot(RegionLayout.SYNC_MAILBOX_BELL));
        this.mailboxWait = new PeerWait(new Idler(mailboxBell, strategy), peers, true);
        this.mailboxSite = peer -> "local rank " + peer + "'s header of " + kind.label + " #" + calls
                + " in its mailbox (" + callBytes + " bytes per rank)";
        // Every rank of the node computes the same: the node's size and processor count agree.
        this.mailboxBarrier = !NodeCpus.outnumbered(size);
        this.arrivalSite = peer -> "every local rank's contribution to " + stepText();
        this.drainSite = peer -> "every local rank to finish reading the node-buffer half before " + stepText();
        this.transferSite = peer -> "every local rank to finish its transfers of the single-copy " + kind.label + " #"
                + calls + callText();
        this.releaseSite = peer -> "local rank 0 to release " + stepText() + " (it releases once it has seen every"
                + " local rank arrive)";
    }

    /**
     * Waits until every local rank has entered the barrier.
     *
     * @param timeoutNs longest wait without progress
     */
    public void nodeBarrier(long timeoutNs) {
        begin(Kind.BARRIER, 0, 0, false, timeoutNs);
        stepCount = 1;
        try {
            if (mailboxBarrier) {
                // An all-gather of nothing: every rank leaves once it has seen every header, at about the same time.
                exchangeByMailbox(MemorySegment.NULL, 0, 0, MemorySegment.NULL, 0);
                return;
            }
            // Local rank 0 releases the others once every rank has arrived (it counts the step's one drain), so it
            // leaves first: a node master goes on to its inter-node work, or a broadcast's root posts, while the
            // others are still being scheduled to see the release.
            int h = nextStep();
            awaitDrained(h);
            arrive(h, size);
            if (me == 0) {
                awaitArrivals(h);
                drain(h, 1);
            } else {
                drainTarget[h] += 1;
                awaitCount(drains[h], drainTarget[h], drainWaits[h], releaseSite);
            }
        } catch (RuntimeException e) {
            throw fail(e);
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
        boolean announce = blockBytes >= singleCopyGatherMinBytes;
        begin(Kind.GATHER, root, blockBytes, announce, timeoutNs);
        try {
            if (mailboxes && blockBytes <= MAILBOX_DATA_BYTES) {
                gatherByMailbox(root, src, srcOffset, blockBytes, dst, dstOffset);
                return;
            }
            if (announce && gatherSingleCopy(root, src, srcOffset, blockBytes, dst, dstOffset)) {
                return;
            }
            long buffered = steps(blockBytes, pieceBytes);
            stepCount += buffered;
            for (long k = 0; k < buffered; k++) {
                int h = nextStep();
                long off = k * pieceBytes;
                long len = Math.min(pieceBytes, blockBytes - off);
                long half = bufferOffset + h * halfBytes;
                if (me != root) {
                    awaitDrained(h);
                    MemorySegment.copy(src, srcOffset + off, segment, half + me * pieceBytes, len);
                    arrive(h, size - 1);
                    drainTarget[h] += 1;
                } else {
                    MemorySegment.copy(src, srcOffset + off, dst, dstOffset + me * blockBytes + off, len);
                    arrivalTarget[h] += size - 1;
                    awaitArrivals(h, EVERY_OTHER_RANK);
                    for (int i = 1; i < size; i++) {
                        int q = (me + i) % size;
                        MemorySegment.copy(segment, half + q * pieceBytes, dst, dstOffset + q * blockBytes + off, len);
                    }
                    drain(h, 1);
                }
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * Copies {@code bytes} from the root's {@code buffer} into every other local rank's
     * {@code buffer} at the same offset.
     */
    public void nodeBroadcast(int root, MemorySegment buffer, long offset, long bytes, long timeoutNs) {
        checkRoot(root);
        Objects.checkFromIndexSize(offset, bytes, buffer.byteSize());
        boolean announce = bytes >= singleCopyBroadcastMinBytes;
        begin(Kind.BROADCAST, root, bytes, announce, timeoutNs);
        try {
            if (mailboxes && bytes <= MAILBOX_DATA_BYTES) {
                broadcastByMailbox(root, buffer, offset, bytes);
                return;
            }
            if (announce && broadcastSingleCopy(root, buffer, offset, bytes)) {
                return;
            }
            long buffered = steps(bytes, halfBytes);
            stepCount += buffered;
            for (long k = 0; k < buffered; k++) {
                int h = nextStep();
                long off = k * halfBytes;
                long len = Math.min(halfBytes, bytes - off);
                long half = bufferOffset + h * halfBytes;
                if (me == root) {
                    awaitDrained(h);
                    MemorySegment.copy(buffer, offset + off, segment, half, len);
                    arrive(h, 1);
                    drainTarget[h] += size - 1;
                } else {
                    arrivalTarget[h] += 1;
                    awaitArrivals(h, root);
                    MemorySegment.copy(segment, half, buffer, offset + off, len);
                    drain(h, size - 1);
                }
            }
        } catch (RuntimeException e) {
            throw fail(e);
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
        boolean announce = blockBytes >= singleCopyMinBytes;
        begin(Kind.ALLGATHER, 0, blockBytes, announce, timeoutNs);
        try {
            if (mailboxes && blockBytes <= MAILBOX_DATA_BYTES) {
                exchangeByMailbox(src, srcOffset, blockBytes, dst, dstOffset);
                return;
            }
            if (announce && allgatherSingleCopy(src, srcOffset, blockBytes, dst, dstOffset)) {
                return;
            }
            long buffered = steps(blockBytes, pieceBytes);
            stepCount += buffered;
            for (long k = 0; k < buffered; k++) {
                int h = nextStep();
                long off = k * pieceBytes;
                long len = Math.min(pieceBytes, blockBytes - off);
                long half = bufferOffset + h * halfBytes;
                awaitDrained(h);
                MemorySegment.copy(src, srcOffset + off, segment, half + me * pieceBytes, len);
                arrive(h, size);
                // Our own block goes straight to dst while the others are still arriving.
                MemorySegment.copy(src, srcOffset + off, dst, dstOffset + me * blockBytes + off, len);
                awaitArrivals(h);
                // Start with the next rank, not rank 0, so the readers spread over the pieces.
                for (int i = 1; i < size; i++) {
                    int q = (me + i) % size;
                    MemorySegment.copy(segment, half + q * pieceBytes, dst, dstOffset + q * blockBytes + off, len);
                }
                drain(h, size);
            }
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** {@link #enableSingleCopy(long, long, boolean)} with one threshold for gathers, broadcasts and all-gathers. */
    public void enableSingleCopy(long minBytes, boolean readsEveryNodeMate) {
        enableSingleCopy(minBytes, minBytes, readsEveryNodeMate);
    }

    /**
     * Lets broadcasts and all-gathers of at least {@code minBytes} per block, and gathers of at least
     * {@code gatherMinBytes}, go single-copy when every node-mate's buffers allow it (see the class comment);
     * {@code Long.MAX_VALUE} leaves them in the node buffer. Every rank of the node must call this with the same
     * thresholds before its first collective, or not at all: a node-mate with another threshold fails the first call
     * where they differ with a mismatch.
     *
     * @param readsEveryNodeMate whether this rank may read every node-mate's memory ({@link Cma#probe}); if not,
     *                           the calls still take the announce step and then go through the node buffer
     */
    public void enableSingleCopy(long minBytes, long gatherMinBytes, boolean readsEveryNodeMate) {
        enableSingleCopy(minBytes, minBytes, gatherMinBytes, readsEveryNodeMate);
    }

    /**
     * As {@link #enableSingleCopy(long, long, boolean)}, with broadcasts of at least {@code broadcastMinBytes} and
     * all-gathers of at least {@code allgatherMinBytes} per block: a single-copy broadcast has every non-root pull
     * the same pages of the root at once, which with many readers costs more than the copy (decision 0182).
     */
    public void enableSingleCopy(long broadcastMinBytes, long allgatherMinBytes, long gatherMinBytes,
                                 boolean readsEveryNodeMate) {
        if (broadcastMinBytes < 1 || allgatherMinBytes < 1 || gatherMinBytes < 1) {
            throw new IllegalArgumentException("single-copy thresholds must be at least 1 byte, got "
                    + broadcastMinBytes + ", " + allgatherMinBytes + " and " + gatherMinBytes);
        }
        this.singleCopyBroadcastMinBytes = broadcastMinBytes;
        this.singleCopyMinBytes = allgatherMinBytes;
        this.singleCopyGatherMinBytes = gatherMinBytes;
        this.readsEveryNodeMate = readsEveryNodeMate;
        if (singleCopier == null) {
            singleCopier = new Cma.Copier(Arena.ofAuto());
        }
    }

    /** Calls this rank carried out single-copy so far. */
    public long singleCopyCalls() {
        return singleCopyCalls;
    }

    /**
     * Whether barriers, and gathers, broadcasts and all-gathers of at most {@link #MAILBOX_DATA_BYTES} per rank, go
     * through the mailboxes (by default the collectives always, barriers when the node's ranks do not outnumber its
     * processors). Every rank of the node must set the same, between calls.
     */
    public void useMailboxes(boolean on) {
        this.mailboxes = on;
        this.mailboxBarrier = on;
    }

    /** A small all-gather (or, of 0 bytes, a barrier) through the mailboxes (see the class comment). */
    private void exchangeByMailbox(MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst,
                                    long dstOffset) {
        long m = nextMailboxCall();
        long header = mailboxHeader(m);
        post(m, header, src, srcOffset, blockBytes);
        MemorySegment.copy(src, srcOffset, dst, dstOffset + me * blockBytes, blockBytes);
        collectMailboxes(m, header, dst, dstOffset, blockBytes);
        everyHeaderSeen = m;
    }

    /**
     * A small broadcast through the mailboxes: the root writes the message into its mailbox and leaves; every other
     * rank waits for it, copies it out and then writes its own header, which says it has read it.
     */
    private void broadcastByMailbox(int root, MemorySegment buffer, long offset, long bytes) {
        long m = nextMailboxCall();
        long header = mailboxHeader(m);
        if (me != root) {
            readMailbox(root, m, header, buffer, offset, bytes);
        }
        post(m, header, buffer, offset, me == root ? bytes : 0);
    }

    /**
     * A small gather through the mailboxes: every other rank writes its block into its mailbox and leaves; the root
     * copies them out as they arrive and then writes its own header.
     */
    private void gatherByMailbox(int root, MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst,
                                 long dstOffset) {
        long m = nextMailboxCall();
        long header = mailboxHeader(m);
        if (me != root) {
            post(m, header, src, srcOffset, blockBytes);
            return;
        }
        MemorySegment.copy(src, srcOffset, dst, dstOffset + me * blockBytes, blockBytes);
        collectMailboxes(m, header, dst, dstOffset, blockBytes);
        post(m, header, src, srcOffset, 0);
        everyHeaderSeen = m;
    }

    /** Writes {@code bytes} of {@code src} and then {@code header} into this rank's mailbox of call {@code m}, and rings. */
    private void post(long m, long header, MemorySegment src, long srcOffset, long bytes) {
        long mine = layout.mailbox(me, (int) (m & 1));
        MemorySegment.copy(src, srcOffset, segment, mine + MAILBOX_DATA, bytes);
        SharedAccess.setLongRelease(segment, mine, header);
        mailboxBell.ring();
    }

    /** Copies every node-mate's block of mailbox call {@code m} to its place in {@code dst}, next rank first. */
    private void collectMailboxes(long m, long header, MemorySegment dst, long dstOffset, long blockBytes) {
        for (int i = 1; i < size; i++) {
            int q = (me + i) % size;
            readMailbox(q, m, header, dst, dstOffset + q * blockBytes, blockBytes);
        }
    }

    /** Waits for local rank {@code q}'s mailbox of call {@code m} and copies its {@code bytes} to {@code dst}. */
    private void readMailbox(int q, long m, long header, MemorySegment dst, long dstOffset, long bytes) {
        long theirs = layout.mailbox(q, (int) (m & 1));
        if (SharedAccess.getLongAcquire(segment, theirs) != header) {
            awaitMailbox(q, theirs, header);
        }
        MemorySegment.copy(segment, theirs + MAILBOX_DATA, dst, dstOffset, bytes);
    }

    /**
     * Numbers the next mailbox call, having made sure its mailbox may be written: every node-mate has written its
     * header of the previous mailbox call, so it has finished the call before, the last one to read what this rank
     * wrote into the mailbox it now reuses. After an all-gather or barrier by mailbox this rank saw every such header
     * already; after a broadcast it looks.
     */
    private long nextMailboxCall() {
        long m = ++mailboxCalls;
        if (everyHeaderSeen != m - 1) {
            int parity = (int) ((m - 1) & 1);
            long seq = (m - 1) & CALL_MASK;
            for (int i = 1; i < size; i++) {
                int q = (me + i) % size;
                long theirs = layout.mailbox(q, parity);
                if (SharedAccess.getLongAcquire(segment, theirs) >>> CALL_SHIFT != seq) {
                    awaitMailboxCall(q, theirs, seq);
                }
            }
            everyHeaderSeen = m - 1;
        }
        return m;
    }

    /** The descriptor with mailbox call {@code m} in place of the node call: what every node-mate's header must equal. */
    private long mailboxHeader(long m) {
        return (m & CALL_MASK) << CALL_SHIFT | (descriptor & ((1L << CALL_SHIFT) - 1));
    }

    /** Waits until local rank {@code q}'s header at {@code offset} shows mailbox call {@code seq}, whatever the call. */
    private void awaitMailboxCall(int q, long offset, long seq) {
        awaitHeader(q, offset, seq << CALL_SHIFT, false);
    }

    /** Waits until local rank {@code q}'s header at {@code offset} is {@code header}; the same call otherwise is a mismatch. */
    private void awaitMailbox(int q, long offset, long header) {
        awaitHeader(q, offset, header, true);
    }

    private void awaitHeader(int q, long offset, long header, boolean exact) {
        mailboxWait.begin(timeoutNs);
        try {
            int rounds = 0;
            long seen;
            while (!shows(seen = SharedAccess.getLongAcquire(segment, offset), header, exact)) {
                if (exact && seen >>> CALL_SHIFT == header >>> CALL_SHIFT) {
                    throw new ShmException(ShmException.Reason.MISMATCH, q, where + ": " + (seen >>> 32 == header >>> 32
                            ? "size mismatch in " : "mismatch: ") + "local rank " + me + " called " + decode(header)
                            + " as mailbox call #" + mailboxCalls + " while local rank " + q + " called " + decode(seen));
                }
                checkAbort(mailboxSite, q);
                // A node-mate that called something else at this point would never fill its mailbox. Looked for every
                // round: a few loads of lines nobody writes during the call, while on a loaded host 64 rounds of
                // yields and sleeps (the old interval) took 2.5-4.5 s (decision 0041).
                checkAgreement();
                IntSupplier work = backgroundWork;
                if (work == null || rounds % BACKGROUND_ROUNDS != 0 || work.getAsInt() == 0) {
                    mailboxWait.idle(q, mailboxSite);
                }
                rounds++;
            }
        } finally {
            mailboxWait.end();
        }
    }

    /** Whether header {@code seen} is {@code header} ({@code exact}) or at least of the same mailbox call. */
    private static boolean shows(long seen, long header, boolean exact) {
        return exact ? seen == header : seen >>> CALL_SHIFT == header >>> CALL_SHIFT;
    }

    /**
     * The announce step of a single-copy all-gather and, if every rank offered its block, the reads; returns false,
     * having only synchronised, if some rank could not take part.
     */
    private boolean allgatherSingleCopy(MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst,
                                        long dstOffset) {
        boolean able = readsEveryNodeMate && src.isNative() && dst.isNative();
        int h = offer(able ? src.address() + srcOffset : 0, size);
        if (able) {
            // Our own block goes straight to dst while the others are still arriving.
            MemorySegment.copy(src, srcOffset, dst, dstOffset + me * blockBytes, blockBytes);
        }
        awaitArrivals(h);
        if (!everyRankOffered()) {
            return false;
        }
        // Start with the next rank, so the readers spread over the owners.
        for (int i = 1; i < size; i++) {
            int q = (me + i) % size;
            read(q, offeredBy(q), dst, dstOffset + q * blockBytes, blockBytes);
        }
        return transfersDone(h);
    }

    /**
     * As {@link #allgatherSingleCopy}, with the copying shared: every rank offers the address of its buffer, the root
     * writes the first {@link #rootShare} bytes into every other rank's buffer while each of them reads the rest out
     * of the root's, and every rank waits until all have finished (the root's buffer is read, the others' are
     * written). The root would otherwise wait idle while the others copy: with 2 ranks this halves the copy.
     */
    private boolean broadcastSingleCopy(int root, MemorySegment buffer, long offset, long bytes) {
        boolean able = readsEveryNodeMate && buffer.isNative();
        int h = announce(able ? buffer.address() + offset : 0, size);
        if (!everyRankOffered()) {
            return false;
        }
        long share = rootShare(bytes);
        if (me == root) {
            for (int i = 1; i < size; i++) {
                int q = (me + i) % size;
                write(q, offeredBy(q), buffer, offset, share);
            }
        } else {
            read(root, offeredBy(root) + share, buffer, offset + share, bytes - share);
        }
        return transfersDone(h);
    }

    /** Copies {@code length} bytes at {@code remoteAddress} of local rank {@code q} into {@code dst}; see {@link #transferFailed}. */
    private void read(int q, long remoteAddress, MemorySegment dst, long dstOffset, long length) {
        try {
            singleCopier.read(peers.pid(q), remoteAddress, dst, dstOffset, length);
        } catch (ShmException e) {
            throw transferFailed(e, "reading " + length + " bytes from", q);
        }
    }

    /** Copies {@code length} bytes of {@code src} to {@code remoteAddress} of local rank {@code q}; see {@link #transferFailed}. */
    private void write(int q, long remoteAddress, MemorySegment src, long srcOffset, long length) {
        try {
            singleCopier.write(peers.pid(q), remoteAddress, src, srcOffset, length);
        } catch (ShmException e) {
            throw transferFailed(e, "writing " + length + " bytes to", q);
        }
    }

    /**
     * A failed cross-memory transfer knows the pid, not the rank: the same failure, naming local rank {@code q} (so
     * that the communicator reports the lost rank, not rank -1) and the call.
     */
    private ShmException transferFailed(ShmException e, String doing, int q) {
        return new ShmException(e.reason(), q, where + ": " + doing + " local rank " + q + " (pid " + peers.pid(q)
                + ") in the single-copy " + kind.label + " #" + calls + callText() + " failed: " + e.getMessage());
    }

    /**
     * The bytes at the start of a single-copy broadcast (gather) that the root writes to (reads from) each of the
     * other L-1 ranks, which move the rest themselves: M / L, so that the root's (L-1) M / L equals each other rank's
     * share, in whole cache lines.
     */
    private long rootShare(long bytes) {
        return CacheLines.alignDown(bytes / size, CacheLines.LINE_BYTES);
    }

    /**
     * The single-copy gather, with the copying shared as in {@link #broadcastSingleCopy}: the root offers its
     * destination, every other rank its source; the root reads the first {@link #rootShare} bytes of every other
     * rank's block while each of them writes the rest straight into the root's destination, and every rank waits
     * until all have finished. Through the node buffer the root's copies out follow the others' copies in; here
     * both halves of the work run at once.
     */
    private boolean gatherSingleCopy(int root, MemorySegment src, long srcOffset, long blockBytes, MemorySegment dst,
                                     long dstOffset) {
        boolean able = readsEveryNodeMate && src.isNative() && (me != root || dst.isNative());
        int h = offer(able ? (me == root ? dst.address() + dstOffset : src.address() + srcOffset) : 0, size);
        if (able && me == root) {
            MemorySegment.copy(src, srcOffset, dst, dstOffset + me * blockBytes, blockBytes);
        }
        awaitArrivals(h);
        if (!everyRankOffered()) {
            return false;
        }
        long share = rootShare(blockBytes);
        if (me == root) {
            for (int i = 1; i < size; i++) {
                int q = (me + i) % size;
                read(q, offeredBy(q), dst, dstOffset + q * blockBytes, share);
            }
        } else {
            write(root, offeredBy(root) + me * blockBytes + share, src, srcOffset + share,
                    blockBytes - share);
        }
        return transfersDone(h);
    }

    /** Publishes this rank's offer (0: none), takes a step every rank arrives at, and returns its half. */
    private int announce(long offer, int contributors) {
        int h = offer(offer, contributors);
        awaitArrivals(h);
        return h;
    }

    /** The first half of {@link #announce}: publishes the offer and arrives, without waiting for the others. */
    private int offer(long offer, int contributors) {
        int h = nextStep();
        awaitDrained(h);
        SharedAccess.setLongRelease(segment, sourceOffset(me), offer);
        arrive(h, contributors);
        return h;
    }

    private boolean everyRankOffered() {
        for (int q = 0; q < size; q++) {
            if (offeredBy(q) == 0) {
                return false;
            }
        }
        return true;
    }

    private long offeredBy(int rank) {
        return SharedAccess.getLongAcquire(segment, sourceOffset(rank));
    }

    private long sourceOffset(int rank) {
        return layout.collectiveSlot(rank) + RegionLayout.COLLECTIVE_SOURCE;
    }

    /** Bytes each rank contributes per step of a gather or all-gather; broadcasts move a half per step. */
    public long pieceBytes() {
        return pieceBytes;
    }

    /** Futex sleeps this rank made in node collectives so far (diagnostics and benchmarks). */
    public long sleeps() {
        long n = 0;
        for (int h = 0; h < 2; h++) {
            n += arrivalWaits[h].sleeps() + drainWaits[h].sleeps();
        }
        n += mailboxWait.sleeps();
        return n;
    }

    /** Steps taken so far by this rank (diagnostics). */
    public long steps() {
        return step;
    }

    /**
     * Records that this rank's next collective runs by messages instead (through the rings or the rails), so that
     * it counts in the node's call numbering and a node-mate that calls a node collective at the same point fails
     * with a mismatch naming both calls instead of waiting for its deadline.
     *
     * @param collective the collective's id ({@code barrier}, {@code gather}, {@code broadcast}, {@code allgather},
     *                   {@code alltoall}, {@code allreduce}, {@code reduce}, {@code reduce-scatter}, {@code scan},
     *                   {@code exscan}, {@code scatter}, and the v-variants {@code gatherv}, {@code scatterv},
     *                   {@code allgatherv}, {@code alltoallv}, {@code reduce-scatterv})
     */
    public void announceByMessages(String collective, int root, long bytes) {
        if (broken) {
            throw new IllegalStateException("a previous node collective of this rank failed; close the region");
        }
        calls++;
        if (collective != announcedId) {
            // Ids are constants: a loop of like calls finds the kind again by identity, without comparing strings.
            announcedKind = Kind.of(collective);
            announcedId = collective;
        }
        SharedAccess.setLongRelease(segment, descriptorOffset(me), describe(calls, announcedKind, true, root, bytes));
    }

    /** The last collective announced by messages and its kind (see {@link #announceByMessages}). */
    private String announcedId;
    private Kind announcedKind;

    /**
     * Work this rank must keep doing while it waits in a node collective (its engine's rails and hooks), called every
     * {@value #BACKGROUND_ROUNDS} idle rounds; any work done restarts the back-off. Null for none.
     */
    public void setBackgroundWork(IntSupplier work) {
        this.backgroundWork = work;
    }

    /** Wakes every rank sleeping in a node collective (a rank that closes its region calls this). */
    void wakeAll() {
        for (int h = 0; h < 2; h++) {
            arrivalBells[h].ring();
            drainBells[h].ring();
        }
        mailboxBell.ring();
    }

    /** Starts a call; {@code singleCopy}: it begins with the announce step (counted in {@link #stepCount}). */
    private void begin(Kind kind, int root, long bytes, boolean singleCopy, long timeoutNs) {
        if (broken) {
            throw new IllegalStateException("a previous node collective of this rank failed; close the region");
        }
        if (timeoutNs <= 0) {
            throw new IllegalArgumentException("timeoutNs must be positive, got " + timeoutNs);
        }
        this.kind = kind;
        this.root = root;
        this.callBytes = bytes;
        this.stepCount = singleCopy ? 1 : 0;
        this.firstStep = step + 1;
        this.agreementChecked = false;
        calls++;
        descriptor = describe(calls, kind, false, root, bytes) | (singleCopy ? SINGLE_COPY : 0);
        this.timeoutNs = timeoutNs;
        SharedAccess.setLongRelease(segment, descriptorOffset(me), descriptor);
    }

    /** Starts the next step and returns its half. */
    private int nextStep() {
        return (int) (++step & 1);
    }

    /** Adds this rank's contribution to the current step of half {@code h}, which has {@code contributors}. */
    private void arrive(int h, int contributors) {
        SharedAccess.setLongRelease(segment, contributionOffset(me, h), calls);
        long target = arrivalTarget[h] += contributors;
        if (SharedAccess.getAndAddLong(segment, arrivals[h], 1) + 1 == target) {
            arrivalBells[h].ring();
        }
    }

    /** Adds this rank's read of the current step of half {@code h}, which has {@code readers}. */
    private void drain(int h, int readers) {
        long target = drainTarget[h] += readers;
        if (SharedAccess.getAndAddLong(segment, drains[h], 1) + 1 == target) {
            drainBells[h].ring();
        }
    }

    /** Waits until every contribution to the current step of half {@code h} is in: from every local rank. */
    private void awaitArrivals(int h) {
        awaitArrivals(h, EVERY_RANK);
    }

    /**
     * Waits until every contribution to the current step of half {@code h} is in, from {@code contributor}: a local
     * rank, {@link #EVERY_RANK} or {@link #EVERY_OTHER_RANK}; then checks that they are contributions to this call.
     */
    private void awaitArrivals(int h, int contributor) {
        awaitCount(arrivals[h], arrivalTarget[h], arrivalWaits[h], arrivalSite);
        checkContributions(h, contributor);
        if (!agreementChecked) {
            agreementChecked = true;
            checkAgreement();
        }
    }

    /**
     * The counters say how many contributions came, not to which call: a node-mate that runs another sequence of
     * calls (an algorithm that takes its node steps in another order for another block size, say) could fill this
     * step with a contribution to an earlier call of its own, and its descriptor may already show a later call by
     * the time this rank looks. So every contributor stamps its call on the half before it arrives. A stamp behind
     * this call means the contributor has not contributed to this half in this call: what filled the step was
     * something else. A stamp ahead is a contributor that already went on (a barrier's half is not drained, so a
     * fast rank may use it again two calls later).
     */
    private void checkContributions(int h, int contributor) {
        for (int q = 0; q < size; q++) {
            if (contributor == EVERY_OTHER_RANK ? q == me : contributor != EVERY_RANK && q != contributor) {
                continue;
            }
            long stamped = SharedAccess.getLongAcquire(segment, contributionOffset(q, h));
            if (stamped < calls) {
                throw new ShmException(ShmException.Reason.MISMATCH, q, where + ": mismatch: local rank " + me
                        + " called " + decode(descriptor) + " as collective #" + calls + ", but local rank " + q
                        + "'s contribution"
                        + " to its step belongs to its collective #" + stamped + " (it now calls "
                        + decode(SharedAccess.getLongAcquire(segment, descriptorOffset(q)))
                        + "): the ranks of this node called different sequences of node collectives");
            }
        }
    }

    /** Waits until the previous step on half {@code h} has been read by all its readers. */
    private void awaitDrained(int h) {
        awaitCount(drains[h], drainTarget[h], drainWaits[h], drainSite);
    }

    /**
     * Ends a single-copy call: counts this rank's drain of its step (on half {@code h}) and waits until every rank
     * has, so no rank returns while a node-mate still reads or writes its buffer. Returns true, the single-copy
     * methods' "carried out".
     */
    private boolean transfersDone(int h) {
        drain(h, size);
        awaitCount(drains[h], drainTarget[h], drainWaits[h], transferSite);
        singleCopyCalls++;
        return true;
    }

    private void awaitCount(long offset, long target, PeerWait wait, WaitSite site) {
        if (SharedAccess.getLongAcquire(segment, offset) >= target) {
            return;
        }
        awaitedStep = step;
        wait.begin(timeoutNs);
        try {
            int rounds = 0;
            do {
                checkAbort(site, -1);
                // Node-mates that called something else (here or by messages) would never arrive; every round, as above.
                checkAgreement();
                IntSupplier work = backgroundWork;
                // Work done there is no progress of this wait (its stall clock runs on), but no reason to sleep.
                if (work == null || rounds % BACKGROUND_ROUNDS != 0 || work.getAsInt() == 0) {
                    wait.idle(-1, site);
                }
                rounds++;
            } while (SharedAccess.getLongAcquire(segment, offset) < target);
        } finally {
            wait.end();
        }
    }

    private void checkAgreement() {
        for (int q = 0; q < size; q++) {
            long theirs = SharedAccess.getLongAcquire(segment, descriptorOffset(q));
            if (theirs != descriptor && (theirs >>> CALL_SHIFT) == (descriptor >>> CALL_SHIFT)) {
                // Same call, same kind and root, other size: say so in the words a size mismatch is reported in.
                String what = (theirs >>> 32) == (descriptor >>> 32) ? "size mismatch in " : "mismatch: ";
                throw new ShmException(ShmException.Reason.MISMATCH, q, where + ": " + what + "local rank " + me
                        + " called " + decode(descriptor) + " as collective #" + calls + " while local rank " + q
                        + " called " + decode(theirs));
            }
        }
    }

    /** Fails if a node-mate aborted the node's collectives, saying what this rank awaited ({@code site} of {@code peer}). */
    private void checkAbort(WaitSite site, int peer) {
        long word = SharedAccess.getLongAcquire(segment, abortWord);
        if (word != 0) {
            relayedAbort = true;
            int who = (int) (word >>> 32) - 1;
            ShmException.Reason reason = ShmException.Reason.values()[(int) word];
            throw new ShmException(ShmException.Reason.ABORTED, who, where + ": local rank " + who
                    + " failed in a node collective (" + reason + "; its own error says more) while this rank awaited "
                    + site.awaited(peer), reason);
        }
    }

    /** Marks this instance broken and, for a failure of its own, the node's collectives aborted. */
    private RuntimeException fail(RuntimeException e) {
        broken = true;
        // A lost node-mate is found by every waiter itself, and named: only other failures are relayed.
        if (e instanceof ShmException shm && !relayedAbort && shm.reason() != ShmException.Reason.PEER_LOST) {
            long word = (long) (me + 1) << 32 | shm.reason().ordinal();
            if (SharedAccess.compareAndSetLong(segment, abortWord, 0, word)) {
                wakeAll();
            }
        }
        return e;
    }

    private long contributionOffset(int rank, int half) {
        return layout.collectiveSlot(rank) + RegionLayout.COLLECTIVE_CONTRIBUTION + half * 8L;
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
        if (awaitedStep == firstStep && (descriptor & SINGLE_COPY) != 0) {
            return "the single-copy announce step (global step " + awaitedStep + ") of " + kind.label + " #" + calls
                    + callText();
        }
        return "step " + (awaitedStep - firstStep + 1) + " of " + stepCount + " (global step " + awaitedStep + ") of "
                + kind.label + " #" + calls + " in the node buffer" + callText();
    }

    private String callText() {
        return switch (kind) {
            case BARRIER, ALLTOALL, ALLREDUCE, PARTIAL_REDUCTION, SCATTER -> ""; // never run in the node buffer
            case ALLGATHER -> " (" + callBytes + " bytes per rank)";
            case GATHER -> " (root " + root + ", " + callBytes + " bytes per rank)";
            case BROADCAST -> " (root " + root + ", " + callBytes + " bytes)";
        };
    }

    // call number mod 2^19 | single copy (1 bit) | by messages (1 bit) | kind (3 bits) | root (8 bits) | bytes mod 2^32
    private static long describe(long call, Kind kind, boolean byMessages, int root, long bytes) {
        return (call & CALL_MASK) << CALL_SHIFT | (byMessages ? BY_MESSAGES : 0) | (long) kind.ordinal() << 40
                | (long) (root & 0xFF) << 32 | (bytes & 0xFFFFFFFFL);
    }

    private static String decode(long d) {
        Kind kind = Kind.values()[(int) (d >>> 40 & 0x7) % Kind.values().length];
        String where = (d & BY_MESSAGES) != 0 ? " by messages"
                : (d & SINGLE_COPY) != 0 ? " in the node buffer (single-copy announce step first)" : " in the node buffer";
        return kind.label + where + switch (kind) {
            case BARRIER -> "";
            case ALLGATHER, ALLTOALL, ALLREDUCE, PARTIAL_REDUCTION -> " (" + (d & 0xFFFFFFFFL) + " bytes per rank mod 2^32)";
            case GATHER, SCATTER -> " (root " + (d >>> 32 & 0xFF) + ", " + (d & 0xFFFFFFFFL) + " bytes per rank mod 2^32)";
            case BROADCAST -> " (root " + (d >>> 32 & 0xFF) + ", " + (d & 0xFFFFFFFFL) + " bytes mod 2^32)";
        };
    }
}
