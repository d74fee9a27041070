package io.railcoll.engine;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.NodeArea;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The node steps of one engine's calls (decision 0101): runs their NodeWrite, NodeRead, Publish, AwaitFlag,
 * PeerRead and PeerWrite ops over the node's shared region, and keeps what those need across calls: the node-buffer
 * gate (decision 0186), the call order of node steps (decision 0203), the raises seen (decision 0200) and what a
 * waiting call waits for, for the engine's spin and sleep.
 *
 * <p>It fails nothing itself: where a node-mate runs another call or is gone, it says which node-mate, and the
 * engine fails the communicator (and tells the peers). It reads the engine's call table, whose oldest call in flight
 * each call-order check is given. Driving thread only, like the engine's progress loop.
 */
final class NodeSteps {
    /** Pauses a spin round spends on a node word before the loop looks at anything else (decision 0200). */
    private static final int NODE_SPIN = 16;
    private static final long NODE_LIVENESS_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /** {@link #await}: the op ran. */
    static final int RAN = -1;
    /** {@link #await}: the op cannot run yet. */
    static final int WAITS = -2;

    /** The engine's calls in flight, call s in slot s mod {@link CollectiveEngine#WINDOW}. */
    private final Posting[] table;
    /** The node region's offer for node steps (decision 0101), or null where programs may hold none. */
    private NodeArea area;
    /** The ranks of this rank's node. */
    private int localSize;
    /**
     * Per half of the node buffer (the call's sequence number's parity, decision 0186): the last call posted whose
     * program uses the node buffer and that fell on that half (0: none yet). Driving thread.
     */
    private final long[] lastBufferSeq = new long[2];
    /** What the engine's sleep waits for when the awaited call's next op is a node step: local rank, word, value. */
    private int nodeWaitRank = -1;
    /** When node-mates' liveness was last looked at (see {@link #livenessLookDue}). */
    private long lastNodeLivenessNs;
    private int nodeWaitWord;
    /**
     * Per local rank, the latest call in which this rank saw that node-mate's raise at an await (decision 0200): the
     * node-mate had then finished the node steps of every earlier call, which {@link #nodeGatePassed} needs to know.
     */
    private long[] raisedSeen = new long[0];
    private long nodeWaitValue;

    NodeSteps(Posting[] table) {
        this.table = table;
    }

    /** Lets node steps run over {@code area}, the node region of a node of {@code localSize} ranks. */
    void attach(NodeArea area, int localSize) {
        this.area = area;
        this.localSize = localSize;
        this.raisedSeen = new long[localSize];
    }

    /** Whether a node region is attached. */
    boolean attached() {
        return area != null;
    }

    /** Whether node-mates agreed at start-up that cross-memory attach works between them (decision 0143). */
    boolean peerAccess() {
        return area.peerAccess();
    }

    /** This rank's local rank on its node, for failure messages. */
    int localRank() {
        return area.localRank();
    }

    /** The word {@code flag} of local rank {@code local}, for failure messages. */
    long flag(int local, int flag) {
        return area.flag(local, flag);
    }

    /**
     * Binds to call {@code seq} ({@code p}, whose program uses the node buffer) the half of the node buffer of its
     * parity, behind the gate of the last earlier call on that half.
     */
    void bindBuffer(Posting p, long seq) {
        // Every rank of the node numbers its calls alike, so all bind the same half (decision 0186).
        int half = (int) (seq & 1);
        p.nodeGateSeq = lastBufferSeq[half];
        p.nodeGateOpen = p.nodeGateSeq == 0;
        p.nodeBuffer = area.buffer(half);
        lastBufferSeq[half] = seq;
    }

    /** Notes call {@code seq}'s digest for node-mates, before any raise of this call: see {@link #notedOtherCall}. */
    void noteCall(long seq, long digest) {
        area.noteCall(seq, digest);
    }

    /** NodeWrite op {@code i} of {@code p}; returns whether it ran. */
    boolean write(Posting p, int i, long oldestSeq) {
        if (earlierNodeSteps(p, oldestSeq) || !nodeGatePassed(p)) {
            return false;
        }
        CompiledProgram prog = p.program;
        MemorySegment.copy(p.buffers[prog.srcBuf[i]], prog.srcOff[i], p.nodeBuffer, prog.dstOff[i], prog.length[i]);
        return true;
    }

    /** NodeRead op {@code i} of {@code p}; returns whether it ran. */
    boolean read(Posting p, int i, long oldestSeq) {
        if (earlierNodeSteps(p, oldestSeq)) {
            return false;
        }
        CompiledProgram prog = p.program;
        MemorySegment.copy(p.nodeBuffer, prog.srcOff[i], p.buffers[prog.dstBuf[i]], prog.dstOff[i], prog.length[i]);
        return true;
    }

    /** Publish op {@code i} of {@code p}; returns whether it ran. */
    boolean publish(Posting p, int i, long oldestSeq) {
        CompiledProgram prog = p.program;
        // A raise that carries bytes overwrites its parity's payload area: the node-buffer gate's rule.
        if (earlierNodeSteps(p, oldestSeq) || prog.payload[i] > 0 && !nodeGatePassed(p)) {
            return false;
        }
        MemorySegment[] bound = p.buffers;
        if (prog.peerBuffers && !p.announced) {
            // Before the call's first raise, whose release makes it visible: node-mates' peer accesses
            // come after it (the checker's PEER_RACE rule), so they never find an earlier call's buffers.
            area.announce(p.heldSeq, bound[Buffer.SEND.ordinal()], bound[Buffer.RECV.ordinal()]);
            p.announced = true;
        }
        if (prog.payload[i] > 0) {
            area.raise(prog.tag[i], flagValue(p.heldSeq, prog.length[i]), p.digest,
                    bound[prog.srcBuf[i]], prog.srcOff[i], prog.payload[i]);
        } else {
            area.raise(prog.tag[i], flagValue(p.heldSeq, prog.length[i]), p.digest);
        }
        return true;
    }

    /**
     * AwaitFlag op {@code i} of {@code p}: {@link #RAN}, {@link #WAITS}, or the local rank of the node-mate whose
     * awaited raise came from another call (a mismatch the engine fails with; see {@link #raisedByOtherCall}).
     */
    int await(Posting p, int i, long oldestSeq) {
        CompiledProgram prog = p.program;
        int mate = prog.peer[i];
        // Every node step, reads and waits too, runs after the earlier calls' (not only raises and
        // writes): a call that finished its node steps ahead of an earlier one would raise a done word
        // saying both were done, and a node-mate past the gate would overwrite what the earlier one has
        // still to read (a non-blocking broadcast's payload, overwritten by a later all-gather's).
        if (earlierNodeSteps(p, oldestSeq)
                || area.flag(mate, prog.tag[i]) < flagValue(p.heldSeq, prog.length[i])) {
            return WAITS;
        }
        if (raisedByOtherCall(p, mate, prog.tag[i])) {
            return mate;
        }
        if (raisedSeen[mate] < p.heldSeq) {
            raisedSeen[mate] = p.heldSeq;
        }
        if (prog.payload[i] > 0) {
            // The awaited raise carried these bytes in the line just fetched (decision 0202); the mate
            // overwrites that area only past the gate, after this rank's done word for this call.
            area.readPayload(mate, prog.tag[i], (int) (p.heldSeq & 1), p.buffers[prog.dstBuf[i]],
                    prog.dstOff[i], prog.payload[i]);
        }
        return RAN;
    }

    /**
     * PeerRead or PeerWrite op {@code i} of {@code p} (a single-copy node step); returns whether it ran. The
     * transport's failure passes through: the engine tells a node-mate that died from a failed system call.
     */
    boolean peerCopy(Posting p, int i, long oldestSeq) {
        if (earlierNodeSteps(p, oldestSeq)) {
            return false;
        }
        CompiledProgram prog = p.program;
        MemorySegment[] bound = p.buffers;
        if (prog.kind[i] == CompiledProgram.PEER_READ) {
            area.peerRead(prog.peer[i], p.heldSeq, prog.srcBuf[i], prog.srcOff[i], bound[prog.dstBuf[i]],
                    prog.dstOff[i], prog.length[i]);
        } else {
            area.peerWrite(bound[prog.srcBuf[i]], prog.srcOff[i], prog.peer[i], p.heldSeq, prog.dstBuf[i],
                    prog.dstOff[i], prog.length[i]);
        }
        return true;
    }

    /** {@code p} ran every op and is done with the node buffer: raises its done word. */
    void doneWithBuffer(Posting p) {
        // Done with the node buffer: a node-mate's next call that writes it may (see nodeGatePassed).
        area.raise(NodeBuffer.FLAGS, flagValue(p.heldSeq, 0), p.digest);
    }

    /**
     * Whether the node-mate whose raise of {@code flag} {@code p} just saw runs another call as this number
     * (collective, operands, algorithm, size or root): node steps carry no frame header, so without this check ranks
     * that disagree would read each other's node buffer as their own call's, and the engine fails with a mismatch on
     * every rank. The raise carried the raising call's digest in the flag's own line (decision 0200), so the check
     * costs no second line. Where the node-mate raised that flag again since, the line shows a later call, and the
     * check reads what the node-mate noted for this call instead: a node-mate whose call of this number never raised
     * the flag (another collective, another root) and then raised it in its next call satisfies the wait all the same,
     * since a word only grows, and without that look the wait ran on a later call's bytes (CI, MismatchSystemTest: a
     * broadcast whose ranks disagreed on the root returned on every rank).
     *
     * <p>That note goes round 16 calls, and a node-mate that runs calls by messages (a root's eager broadcasts) gets
     * further ahead than that. So the node-mate's raises before its latest (the last three calls that raised the
     * flag) are read first (decision 0242): where one was this call's, its digest is compared; where the newest of
     * them not after this call came before it, the node-mate raised the flag in no call of this number, and its call
     * differs. Only where all three came after this call is the note needed, and where the note has gone round too,
     * nothing shows that this call raised the flag, and the wait fails rather than run on a later call's bytes. A
     * correct program does not get there: while this rank has not finished this call's node steps, a node-mate raises
     * a flag in at most three later calls (decision 0242: one with data on each half of the node buffer, whose gate
     * waits for this rank past that, and the call it then waits in for this rank).
     */
    private boolean raisedByOtherCall(Posting p, int local, int flag) {
        long theirs = area.raisedCall(local, flag, p.heldSeq);
        if (theirs >= 0) {
            return theirs != p.digest;
        }
        theirs = area.raisedBefore(local, flag, p.heldSeq);
        if (theirs == NodeArea.SKIPPED) {
            return true;
        }
        if (theirs < 0) {
            // The flag shows a later call, so the node-mate noted this one: a note that no longer shows it has gone round.
            theirs = area.notedCall(local, p.heldSeq);
        }
        return theirs < 0 || theirs != p.digest;
    }

    /**
     * As {@link #raisedByOtherCall}, from what the node-mate noted for this call before its first raise: for a wait
     * whose flag the node-mate may never raise because its program is another (seen at a liveness look). The note
     * shows unless the node-mate has run 16 calls further since.
     */
    boolean notedOtherCall(Posting p, int local) {
        long theirs = area.notedCall(local, p.heldSeq);
        return theirs >= 0 && theirs != p.digest;
    }

    /** A 24-bit digest of what a call is, as its frames' headers would carry it (see {@link #raisedByOtherCall}). */
    static long callDigest(FrameHeader meta) {
        long h = meta.collective * 0x9E3779B97F4A7C15L;
        h = (h ^ meta.algorithm) * 0x9E3779B97F4A7C15L;
        h = (h ^ meta.root) * 0x9E3779B97F4A7C15L;
        h = (h ^ meta.blockBytes) * 0x9E3779B97F4A7C15L;
        return (h ^ h >>> 29) & 0xffffff;
    }

    /** What a node word reads once call {@code seq} raised it {@code count} times (see {@link NodeArea}). */
    private static long flagValue(long seq, long count) {
        return seq << 20 | count;
    }

    /** The earliest call in flight before {@code p} that still has node steps to run, or {@code p}. */
    private Posting earliestWithNodeSteps(Posting p, long oldestSeq) {
        for (long seq = oldestSeq; seq < p.heldSeq; seq++) {
            Posting q = table[(int) (seq & (CollectiveEngine.WINDOW - 1))];
            if (q.activeSeq == seq && q.program.nodeSteps && !q.opsDone()) {
                return q;
            }
        }
        return p;
    }

    /**
     * Whether a call in flight before {@code p} still has node steps to run. Node steps of calls run in call order on
     * every rank: a flag raised by a later call would otherwise count for an earlier one's wait.
     */
    private boolean earlierNodeSteps(Posting p, long oldestSeq) {
        for (long seq = oldestSeq; seq < p.heldSeq; seq++) {
            Posting q = table[(int) (seq & (CollectiveEngine.WINDOW - 1))];
            if (q.activeSeq == seq && q.program.nodeSteps && !q.opsDone()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code p} may write its half of the node buffer: every node-mate has run every op of the last earlier
     * call that used the same half, so none still reads what this write overwrites (the node buffer carries nothing
     * between calls; a mate's done word only grows, and it runs its node steps call by call, so a word at or past
     * that call means that call is done). The other half's last call may still be read (decision 0186).
     */
    private boolean nodeGatePassed(Posting p) {
        if (p.nodeGateOpen) {
            return true;
        }
        long need = flagValue(p.nodeGateSeq, 0);
        for (int r = 0; r < localSize; r++) {
            // A raise of a later call seen at an await says the same as the done word without fetching its line:
            // node steps run call by call, so that node-mate had run every op of the gate's call before it.
            if (raisedSeen[r] <= p.nodeGateSeq && area.flag(r, NodeBuffer.FLAGS) < need) {
                return false;
            }
        }
        p.nodeGateOpen = true;
        return true;
    }

    /** Whether {@code p}'s next op waits at the node-buffer gate (for every node-mate's done word). */
    static boolean atGate(Posting p) {
        return p.program.gated(p.nextOp) && !p.nodeGateOpen;
    }

    /**
     * Notes what {@code p} waits for when its next op is a node step that cannot run, so that the engine's sleep
     * sleeps until that word changes ({@link #waiting}); nothing otherwise.
     */
    void noteNodeWait(Posting p, long oldestSeq) {
        nodeWaitRank = -1;
        if (p == null || p.opsDone() || area == null) {
            return;
        }
        // A call's node steps wait for an earlier call's: what that one waits for is what holds this one up.
        p = earliestWithNodeSteps(p, oldestSeq);
        CompiledProgram prog = p.program;
        int i = p.nextOp;
        if (prog.kind[i] == CompiledProgram.AWAIT) {
            nodeWaitRank = prog.peer[i];
            nodeWaitWord = prog.tag[i];
            nodeWaitValue = flagValue(p.heldSeq, prog.length[i]);
        } else if (prog.gated(i) && !p.nodeGateOpen && !earlierNodeSteps(p, oldestSeq)) {
            long need = flagValue(p.nodeGateSeq, 0);
            for (int r = 0, local = localSize; r < local; r++) {
                if (area.flag(r, NodeBuffer.FLAGS) < need) {
                    nodeWaitRank = r;
                    nodeWaitWord = NodeBuffer.FLAGS;
                    nodeWaitValue = need;
                    return;
                }
            }
        }
    }

    /** Whether the awaited call waits for a node word (noted by {@link #noteNodeWait}). */
    boolean waiting() {
        return nodeWaitRank >= 0;
    }

    /**
     * Spins on the awaited word itself for a while: a round of the whole loop is tens of nanoseconds, the raise is
     * seen here within one pause of its line arriving (decision 0200).
     */
    void spinOnAwaitedWord() {
        for (int i = 0; i < NODE_SPIN && area.flag(nodeWaitRank, nodeWaitWord) < nodeWaitValue; i++) {
            Thread.onSpinWait();
        }
    }

    /**
     * Sleeps until the awaited word changes, at most {@code sliceNs}; {@code alone}: the awaited call is the only
     * one in flight. A node-mate's raise rings this rank's doorbell, as do shared-memory senders and rail threads.
     */
    void sleepOnAwaitedWord(long sliceNs, boolean alone) {
        int local = nodeWaitRank;
        nodeWaitRank = -1;
        // With one call in flight nothing but that node-mate's raise moves its node steps on (decision 0188).
        area.await(local, nodeWaitWord, nodeWaitValue, sliceNs, alone);
    }

    /** Whether a liveness look at node-mates is due (one reads /proc per node-mate): every 5 ms at most. */
    boolean livenessLookDue() {
        long now = System.nanoTime();
        if (now - lastNodeLivenessNs < NODE_LIVENESS_EVERY_NS) {
            return false; // a look reads /proc per node-mate
        }
        lastNodeLivenessNs = now;
        return true;
    }

    /**
     * The first node-mate that {@code p}'s waiting node step waits for (every one, at the node-buffer gate) and that
     * is gone, or -1.
     */
    int lostMate(Posting p) {
        CompiledProgram prog = p.program;
        boolean gate = atGate(p);
        for (int r = gate ? 0 : prog.peer[p.nextOp]; r < (gate ? localSize : prog.peer[p.nextOp] + 1); r++) {
            // A node-mate that raised what is awaited and then left (its last call done, its communicator closed) is
            // not lost to this call: the raise came before its goodbye, so it shows now, and the next round runs the
            // op. Without this look a rank that read the word just before the raise and the goodbye just after
            // (descheduled between the two) failed its last barrier with "lost rank" (CI, CpuBindingSystemTest).
            if (!area.alive(r) && !raisedWhatIsAwaited(p, r, gate)) {
                return r;
            }
        }
        return -1;
    }

    /** Whether node-mate {@code local} has raised what {@code p}'s waiting node step awaits of it. */
    private boolean raisedWhatIsAwaited(Posting p, int local, boolean gate) {
        if (gate) {
            return raisedSeen[local] > p.nodeGateSeq
                    || area.flag(local, NodeBuffer.FLAGS) >= flagValue(p.nodeGateSeq, 0);
        }
        CompiledProgram prog = p.program;
        return area.flag(local, prog.tag[p.nextOp]) >= flagValue(p.heldSeq, prog.length[p.nextOp]);
    }

    /** Whether node-mate {@code local} is alive. */
    boolean alive(int local) {
        return area.alive(local);
    }
}
