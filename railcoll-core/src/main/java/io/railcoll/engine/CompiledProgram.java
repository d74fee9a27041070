package io.railcoll.engine;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;

import java.util.Arrays;
import java.util.List;

/**
 * A rank's program flattened into parallel arrays, so running it walks arrays and allocates nothing.
 * Receive slots are numbered in program order; {@link #slotOf} finds the slot of an incoming put by
 * (sender, tag) through a small open-addressing table. Immutable once built.
 */
final class CompiledProgram {
    static final byte PUT = 0;
    static final byte RECV = 1;
    static final byte COPY = 2;
    /** A local combine with the call's reduction: dst = src op dst (see {@link Op.Reduce}). */
    static final byte REDUCE = 3;
    /** Node steps (decision 0101): peer is the node-mate's local rank for AWAIT, tag the flag, length the count. */
    static final byte NODE_WRITE = 4;
    static final byte NODE_READ = 5;
    static final byte PUBLISH = 6;
    static final byte AWAIT = 7;
    /** A Multicast (decision 0146): peer is the root, dstBuf/dstOff/length the range sent or received. */
    static final byte MULTICAST = 20;
    /**
     * Single-copy steps (decision 0143): peer is the node-mate's local rank; PEER_READ's srcBuf and PEER_WRITE's dstBuf
     * name the node-mate's buffer as {@link io.railcoll.transport.NodeArea#SEND} or {@code RECV}.
     */
    static final byte PEER_READ = 8;
    static final byte PEER_WRITE = 9;

    final String algorithmId;
    final int algorithmCode;
    final long tempBytes;

    final byte[] kind;
    final int[] peer;
    final int[] tag;
    final byte[] srcBuf;
    final long[] srcOff;
    final byte[] dstBuf;
    final long[] dstOff;
    final long[] length;
    /** For RECV ops, the slot they wait on. */
    final int[] slot;
    /**
     * For PUBLISH and AWAIT, the bytes the raise carries in its flag's line (decision 0202), 0 when none: a PUBLISH
     * copies them from srcBuf/srcOff, an AWAIT into dstBuf/dstOff.
     */
    final long[] payload;

    /** True when some op is a node step: the call needs the node region. */
    final boolean nodeSteps;
    /**
     * True when some op writes or reads the node buffer, or a flag's payload (the payload areas go by the call's
     * parity as the buffer's halves, and the same gate protects them): see {@code CollectiveEngine}'s node-buffer rule.
     */
    final boolean nodeBuffer;
    /**
     * True when the call announces its buffers (decision 0143): some op reads or writes a node-mate's buffers, or the
     * algorithm is a peer-access user whose node-mates may reach this rank's buffers although this rank reaches none
     * of theirs (the root of {@code broadcast.shm-scatter-allgather}, decision 0180).
     */
    final boolean peerBuffers;
    /** Index of the first NODE_WRITE, or -1. */
    final int firstNodeWrite;

    /** Index of the last MULTICAST, or -1: until a call runs past it, a later call's multicasts wait (call order). */
    final int lastMulticast;

    /** True when some op is a REDUCE: the call must bring a reduction. */
    final boolean combines;
    /** The gcd of the REDUCE lengths (0 when none): every one is a whole number of elements iff this is. */
    final long reduceGranule;

    final int slots;
    final int[] slotPeer;
    final int[] slotTag;
    final byte[] slotBuf;
    final long[] slotOff;
    final long[] slotLen;

    /** Per peer (index), the index of the last PUT to it, or -1: see {@link #lastPutTo}. */
    private final int[] lastPut;

    private final long[] tableKeys;
    private final int[] tableSlots;
    private final int tableMask;

    /** {@code localRankOf} maps an AwaitFlag's peer (a rank) to its local rank (null where no node steps run). */
    CompiledProgram(String algorithmId, RankProgram program, java.util.function.IntUnaryOperator localRankOf,
                    boolean peerAccessUser) {
        this.algorithmId = algorithmId;
        this.algorithmCode = algorithmId.hashCode();
        this.tempBytes = program.tempBytes();
        List<Op> ops = program.ops();
        int n = ops.size();
        kind = new byte[n];
        peer = new int[n];
        tag = new int[n];
        srcBuf = new byte[n];
        srcOff = new long[n];
        dstBuf = new byte[n];
        dstOff = new long[n];
        length = new long[n];
        slot = new int[n];
        payload = new long[n];
        int recvs = 0;
        for (Op op : ops) {
            if (op instanceof Op.Recv) {
                recvs++;
            }
        }
        slots = recvs;
        slotPeer = new int[recvs];
        slotTag = new int[recvs];
        slotBuf = new byte[recvs];
        slotOff = new long[recvs];
        slotLen = new long[recvs];
        int cap = Integer.highestOneBit(Math.max(4, recvs * 2 - 1)) << 1;
        tableKeys = new long[cap];
        tableSlots = new int[cap];
        tableMask = cap - 1;
        Arrays.fill(tableSlots, -1);
        int s = 0;
        int reduces = 0;
        int nodeOps = 0;
        int bufferOps = 0;
        int firstWrite = -1;
        int lastCast = -1;
        int peerOps = 0;
        int[] raised = new int[io.railcoll.schedule.NodeBuffer.FLAGS];
        long reduceGranule = 0;
        for (int i = 0; i < n; i++) {
            switch (ops.get(i)) {
                case Op.Put p -> {
                    kind[i] = PUT;
                    peer[i] = p.peer();
                    tag[i] = p.tag();
                    srcBuf[i] = (byte) p.src().ordinal();
                    srcOff[i] = p.srcOffset();
                    length[i] = p.length();
                }
                case Op.Recv r -> {
                    kind[i] = RECV;
                    peer[i] = r.peer();
                    tag[i] = r.tag();
                    dstBuf[i] = (byte) r.dst().ordinal();
                    dstOff[i] = r.dstOffset();
                    length[i] = r.length();
                    slot[i] = s;
                    slotPeer[s] = r.peer();
                    slotTag[s] = r.tag();
                    slotBuf[s] = (byte) r.dst().ordinal();
                    slotOff[s] = r.dstOffset();
                    slotLen[s] = r.length();
                    insert(r.peer(), r.tag(), s);
                    s++;
                }
                case Op.Reduce x -> {
                    kind[i] = REDUCE;
                    srcBuf[i] = (byte) x.src().ordinal();
                    srcOff[i] = x.srcOffset();
                    dstBuf[i] = (byte) x.dst().ordinal();
                    dstOff[i] = x.dstOffset();
                    length[i] = x.length();
                    reduceGranule = gcd(reduceGranule, x.length());
                    reduces++;
                }
                case Op.NodeWrite w -> {
                    kind[i] = NODE_WRITE;
                    srcBuf[i] = (byte) w.src().ordinal();
                    srcOff[i] = w.srcOffset();
                    dstOff[i] = w.nodeOffset();
                    length[i] = w.length();
                    firstWrite = firstWrite < 0 ? i : firstWrite;
                    nodeOps++;
                    bufferOps++;
                }
                case Op.NodeRead r -> {
                    kind[i] = NODE_READ;
                    srcOff[i] = r.nodeOffset();
                    dstBuf[i] = (byte) r.dst().ordinal();
                    dstOff[i] = r.dstOffset();
                    length[i] = r.length();
                    nodeOps++;
                    bufferOps++;
                }
                case Op.Publish f -> {
                    kind[i] = PUBLISH;
                    tag[i] = f.flag();
                    length[i] = ++raised[f.flag()];
                    srcBuf[i] = (byte) f.src().ordinal();
                    srcOff[i] = f.srcOffset();
                    payload[i] = f.length();
                    bufferOps += f.length() > 0 ? 1 : 0;
                    nodeOps++;
                }
                case Op.AwaitFlag a -> {
                    kind[i] = AWAIT;
                    peer[i] = localRankOf == null ? a.peer() : localRankOf.applyAsInt(a.peer());
                    tag[i] = a.flag();
                    length[i] = a.count();
                    dstBuf[i] = (byte) a.dst().ordinal();
                    dstOff[i] = a.dstOffset();
                    payload[i] = a.length();
                    bufferOps += a.length() > 0 ? 1 : 0;
                    nodeOps++;
                }
                case Op.Multicast m -> {
                    kind[i] = MULTICAST;
                    peer[i] = m.root();
                    dstBuf[i] = (byte) m.buffer().ordinal();
                    dstOff[i] = m.offset();
                    length[i] = m.length();
                    lastCast = i;
                }
                case Op.PeerRead x -> {
                    kind[i] = PEER_READ;
                    peer[i] = localRankOf == null ? x.peer() : localRankOf.applyAsInt(x.peer());
                    srcBuf[i] = (byte) announced(x.src());
                    srcOff[i] = x.srcOffset();
                    dstBuf[i] = (byte) x.dst().ordinal();
                    dstOff[i] = x.dstOffset();
                    length[i] = x.length();
                    nodeOps++;
                    peerOps++;
                }
                case Op.PeerWrite x -> {
                    kind[i] = PEER_WRITE;
                    peer[i] = localRankOf == null ? x.peer() : localRankOf.applyAsInt(x.peer());
                    srcBuf[i] = (byte) x.src().ordinal();
                    srcOff[i] = x.srcOffset();
                    dstBuf[i] = (byte) announced(x.dst());
                    dstOff[i] = x.dstOffset();
                    length[i] = x.length();
                    nodeOps++;
                    peerOps++;
                }
                case Op.Copy c -> {
                    kind[i] = COPY;
                    srcBuf[i] = (byte) c.src().ordinal();
                    srcOff[i] = c.srcOffset();
                    dstBuf[i] = (byte) c.dst().ordinal();
                    dstOff[i] = c.dstOffset();
                    length[i] = c.length();
                }
            }
        }
        int maxPeer = -1;
        for (int i = 0; i < n; i++) {
            if (kind[i] == PUT) {
                maxPeer = Math.max(maxPeer, peer[i]);
            }
        }
        lastPut = new int[maxPeer + 1];
        Arrays.fill(lastPut, -1);
        for (int i = 0; i < n; i++) {
            if (kind[i] == PUT) {
                lastPut[peer[i]] = i;
            }
        }
        combines = reduces > 0;
        nodeSteps = nodeOps > 0;
        nodeBuffer = bufferOps > 0;
        firstNodeWrite = firstWrite;
        lastMulticast = lastCast;
        peerBuffers = peerOps > 0 || peerAccessUser;
        this.reduceGranule = reduceGranule;
    }

    /**
     * Whether op {@code i} overwrites what node-mates may still read of the call two before (a NODE_WRITE, or a
     * PUBLISH that carries bytes): it waits at the node-buffer gate (decisions 0186, 0202).
     */
    boolean gated(int i) {
        return kind[i] == NODE_WRITE || kind[i] == PUBLISH && payload[i] > 0;
    }

    /** A node-mate's buffer as the node area names it: only SEND and RECV are announced. */
    private static int announced(Buffer buffer) {
        return switch (buffer) {
            case SEND -> io.railcoll.transport.NodeArea.SEND;
            case RECV -> io.railcoll.transport.NodeArea.RECV;
            case TEMP -> throw new IllegalArgumentException("a node-mate's TEMP is never announced");
        };
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    int ops() {
        return kind.length;
    }

    /**
     * The index of this program's last PUT to {@code peer}, or -1 when it puts nothing there. While a call has not
     * run past it, a later call must not put to that peer: its frames would arrive first and pause the connection
     * in front of the earlier call's (decision 0060).
     */
    int lastPutTo(int peer) {
        return peer < lastPut.length ? lastPut[peer] : -1;
    }

    /** The slot awaiting {@code peer}'s put with {@code tag}, or -1 when this program expects none. */
    int slotOf(int peer, int tag) {
        long key = key(peer, tag);
        int i = mix(key) & tableMask;
        while (tableSlots[i] >= 0) {
            if (tableKeys[i] == key) {
                return tableSlots[i];
            }
            i = (i + 1) & tableMask;
        }
        return -1;
    }

    private void insert(int peer, int tag, int s) {
        long key = key(peer, tag);
        int i = mix(key) & tableMask;
        while (tableSlots[i] >= 0) {
            if (tableKeys[i] == key) {
                throw new IllegalArgumentException(algorithmId + ": two receives from rank " + peer + " with tag " + tag);
            }
            i = (i + 1) & tableMask;
        }
        tableKeys[i] = key;
        tableSlots[i] = s;
    }

    private static long key(int peer, int tag) {
        return ((long) peer << 32) | (tag & 0xffffffffL);
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    static Buffer buffer(byte code) {
        return Buffer.values()[code];
    }
}
