package io.railcoll.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Runs every rank's program over {@link SymbolicBuffer}s, the way the engine would but without time: each rank runs
 * until it reaches a Recv whose put has not been issued, and passes repeat until no rank can move. A put's data is
 * taken when it is issued and lands when its Recv is reached; the hazard rules (checked separately) are what make
 * any real timing give the same bytes. It also answers whether one op happens before another. Package-private
 * helper of {@link ScheduleChecker}; one instance per check.
 */
final class SymbolicExecution {

    private final Shape shape;
    private final List<RankProgram> programs;
    private final Matching matching;
    private final ViolationSink sink;
    private final SymbolicBuffer[][] buffers;
    /** Per node, its node buffer. */
    private final SymbolicBuffer[] nodeBuffers;
    private final int[] next;
    /** Per rank: op indices of its Recvs, ascending. */
    private final int[][] receiveIndex;
    private final boolean[][] issued;
    /** Per rank and op: the data a put took when issued, until its Recv consumes it. */
    private final List<List<List<SymbolicBuffer.Piece>>> putData;
    /** Per rank: op indices of its Multicasts, in order (the k-th of every rank is one delivery). */
    private final int[][] multicastIndex;
    /** Per delivery k: the root's bytes, taken once every member reached it. */
    private final Map<Integer, List<SymbolicBuffer.Piece>> multicastData = new HashMap<>();
    /** Causal pasts already computed, by event ({@code rank << 32 | op}). */
    private final Map<Long, int[]> pasts = new HashMap<>();

    /**
     * @param ownBlockInRecv in place (decision 0220): each rank's RECV starts with its own SEND bytes at
     *                       {@link InPlace#ownOffset}, where the programs ({@link InPlace#aliased}) read them
     */
    SymbolicExecution(Shape shape, List<RankProgram> programs, Matching matching, ViolationSink sink,
                      boolean ownBlockInRecv) {
        this.shape = shape;
        this.programs = programs;
        this.matching = matching;
        this.sink = sink;
        int n = shape.size();
        buffers = new SymbolicBuffer[n][Buffer.values().length];
        next = new int[n];
        receiveIndex = new int[n][];
        issued = new boolean[n][];
        putData = new ArrayList<>(n);
        multicastIndex = new int[n][];
        nodeBuffers = new SymbolicBuffer[shape.placement().nodeCount()];
        for (int node = 0; node < nodeBuffers.length; node++) {
            nodeBuffers[node] = new SymbolicBuffer();
        }
        long b = shape.blockBytes();
        for (int r = 0; r < n; r++) {
            for (Buffer buffer : Buffer.values()) {
                buffers[r][buffer.ordinal()] = new SymbolicBuffer();
            }
            buffers[r][Buffer.SEND.ordinal()].fillWithOrigin(shape.sendBytes(r), r, Buffer.SEND);
            if (shape.collective() == Collective.BROADCAST && r == shape.root()) {
                buffers[r][Buffer.RECV.ordinal()].fillWithOrigin(b, r, Buffer.RECV);
            }
            if (ownBlockInRecv && shape.sendBytes(r) > 0) {
                buffers[r][Buffer.RECV.ordinal()].write(InPlace.ownOffset(shape, r),
                        List.of(SymbolicBuffer.Piece.of(shape.sendBytes(r), r, Buffer.SEND, 0)));
            }
            List<Op> ops = programs.get(r).ops();
            int self = r;
            // Every op that waits for another rank's op: the causal edges.
            receiveIndex[r] = IntStream.range(0, ops.size())
                    .filter(i -> ops.get(i) instanceof Op.Recv || ops.get(i) instanceof Op.AwaitFlag
                            || ops.get(i) instanceof Op.Multicast m && m.root() != self).toArray();
            multicastIndex[r] = IntStream.range(0, ops.size()).filter(i -> ops.get(i) instanceof Op.Multicast).toArray();
            issued[r] = new boolean[ops.size()];
            putData.add(new ArrayList<>(Collections.nCopies(ops.size(), null)));
        }
    }

    /** Runs to completion or deadlock; returns true when every rank finished. */
    boolean run() {
        int n = shape.size();
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int r = 0; r < n; r++) {
                List<Op> ops = programs.get(r).ops();
                while (next[r] < ops.size()) {
                    int i = next[r];
                    Op op = ops.get(i);
                    if (op instanceof Op.Recv v) {
                        int sender = matching.peerRank(r, i);
                        int putIndex = matching.peerOp(r, i);
                        if (!issued[sender][putIndex]) {
                            break;
                        }
                        buffer(r, v.dst()).write(v.dstOffset(), putData.get(sender).set(putIndex, null));
                    } else if (op instanceof Op.Put p) {
                        issued[r][i] = true;
                        putData.get(r).set(i, readDefined(r, i, p.src(), p.srcOffset(), p.length()));
                    } else if (op instanceof Op.Copy c) {
                        List<SymbolicBuffer.Piece> data = readDefined(r, i, c.src(), c.srcOffset(), c.length());
                        buffer(r, c.dst()).write(c.dstOffset(), data);
                    } else if (op instanceof Op.Publish f) {
                        if (f.length() > 0) {
                            // Taken when raised, as a put's data when issued: the bytes the flag's line carries.
                            putData.get(r).set(i, readDefined(r, i, f.src(), f.srcOffset(), f.length()));
                        }
                    } else if (op instanceof Op.AwaitFlag a) {
                        if (next[matching.peerRank(r, i)] <= matching.peerOp(r, i)) {
                            break;
                        }
                        if (a.length() > 0) {
                            List<SymbolicBuffer.Piece> data = putData.get(matching.peerRank(r, i))
                                    .get(matching.peerOp(r, i));
                            if (data == null) {
                                sink.add(ScheduleChecker.Rule.UNINITIALIZED_READ, r, i, "reads a payload that rank "
                                        + a.peer() + "'s awaited raise does not carry");
                            } else {
                                buffer(r, a.dst()).write(a.dstOffset(), data);
                            }
                        }
                    } else if (op instanceof Op.NodeWrite w) {
                        List<SymbolicBuffer.Piece> data = readDefined(r, i, w.src(), w.srcOffset(), w.length());
                        nodeBuffer(r).write(w.nodeOffset(), data);
                    } else if (op instanceof Op.NodeRead w) {
                        List<SymbolicBuffer.Piece> data = nodeBuffer(r).read(w.nodeOffset(), w.length());
                        if (data.stream().anyMatch(piece -> !piece.defined())) {
                            sink.add(ScheduleChecker.Rule.UNINITIALIZED_READ, r, i, "reads node buffer ["
                                    + w.nodeOffset() + "," + (w.nodeOffset() + w.length()) + ") which no earlier op wrote");
                        }
                        buffer(r, w.dst()).write(w.dstOffset(), data);
                    } else if (op instanceof Op.Multicast m) {
                        // Every member's k-th Multicast completes once all have reached theirs: stricter than a
                        // transport that lets receivers finish after the root alone, so no such timing deadlocks.
                        int k = Arrays.binarySearch(multicastIndex[r], i);
                        if (!everyMemberReached(k)) {
                            break;
                        }
                        List<SymbolicBuffer.Piece> data = multicastData.computeIfAbsent(k, x -> readDefined(m.root(),
                                multicastIndex[m.root()][k], m.buffer(), m.offset(), m.length()));
                        if (r != m.root()) {
                            buffer(r, m.buffer()).write(m.offset(), data);
                        }
                    } else if (op instanceof Op.PeerRead x) {
                        List<SymbolicBuffer.Piece> data = readDefined(x.peer(), i, x.src(), x.srcOffset(), x.length());
                        buffer(r, x.dst()).write(x.dstOffset(), data);
                    } else if (op instanceof Op.PeerWrite x) {
                        List<SymbolicBuffer.Piece> data = readDefined(r, i, x.src(), x.srcOffset(), x.length());
                        buffer(x.peer(), x.dst()).write(x.dstOffset(), data);
                    } else if (op instanceof Op.Reduce x) {
                        List<SymbolicBuffer.Piece> left = readDefined(r, i, x.src(), x.srcOffset(), x.length());
                        List<SymbolicBuffer.Piece> right = readDefined(r, i, x.dst(), x.dstOffset(), x.length());
                        buffer(r, x.dst()).write(x.dstOffset(), SymbolicBuffer.combine(left, right));
                    }
                    next[r]++;
                    progress = true;
                }
            }
        }
        boolean done = true;
        for (int r = 0; r < n; r++) {
            done &= next[r] == programs.get(r).ops().size();
        }
        if (!done) {
            reportDeadlock();
        }
        return done;
    }

    private boolean everyMemberReached(int k) {
        for (int m = 0; m < next.length; m++) {
            if (next[m] < multicastIndex[m][k]) {
                return false;
            }
        }
        return true;
    }

    private List<SymbolicBuffer.Piece> readDefined(int rank, int opIndex, Buffer buffer, long offset, long length) {
        List<SymbolicBuffer.Piece> pieces = buffer(rank, buffer).read(offset, length);
        long pos = offset;
        for (SymbolicBuffer.Piece piece : pieces) {
            if (!piece.defined()) {
                sink.add(ScheduleChecker.Rule.UNINITIALIZED_READ, rank, opIndex,
                        "reads " + buffer + "[" + pos + "," + (pos + piece.length()) + ") which no earlier op wrote");
                break;
            }
            pos += piece.length();
        }
        return pieces;
    }

    private SymbolicBuffer nodeBuffer(int rank) {
        return nodeBuffers[shape.placement().nodeOf(rank)];
    }

    SymbolicBuffer buffer(int rank, Buffer buffer) {
        return buffers[rank][buffer.ordinal()];
    }

    /** True when op {@code a} of rank {@code q} happens before op {@code i} of rank {@code r}. */
    boolean happensBefore(int q, int a, int r, int i) {
        return q == r ? a < i : causalPast(r, i)[q] > a;
    }

    /** Number of rank {@code q}'s ops in the causal past of op {@code i} of rank {@code r} (its own included). */
    int knownOps(int r, int i, int q) {
        return causalPast(r, i)[q];
    }

    /**
     * For each rank, how many of its ops happen before or at op {@code i} of rank {@code r}: program order plus
     * put-issue-before-Recv-completion, closed transitively. Computed on demand and cached, because most hazard
     * questions are answered by program order alone, and a vector clock per Recv would cost N^3 memory for a
     * direct all-to-all.
     */
    private int[] causalPast(int r, int i) {
        long key = (long) r << 32 | i;
        int[] cached = pasts.get(key);
        if (cached != null) {
            return cached;
        }
        int n = shape.size();
        int[] known = new int[n];
        int[] scanned = new int[n];
        known[r] = i + 1;
        ArrayDeque<Integer> work = new ArrayDeque<>();
        work.push(r);
        while (!work.isEmpty()) {
            int x = work.pop();
            int[] receives = receiveIndex[x];
            int j = Arrays.binarySearch(receives, scanned[x]);
            for (j = j < 0 ? -j - 1 : j; j < receives.length && receives[j] < known[x]; j++) {
                int sender = matching.peerRank(x, receives[j]);
                int putOps = matching.peerOp(x, receives[j]) + 1;
                if (putOps > known[sender]) {
                    known[sender] = putOps;
                    work.push(sender);
                }
            }
            scanned[x] = Math.max(scanned[x], known[x]);
        }
        pasts.put(key, known);
        return known;
    }

    private void reportDeadlock() {
        int n = shape.size();
        StringBuilder waits = new StringBuilder();
        int shown = 0;
        int firstRank = -1;
        int firstOp = -1;
        for (int r = 0; r < n; r++) {
            List<Op> ops = programs.get(r).ops();
            if (next[r] == ops.size()) {
                continue;
            }
            if (firstRank < 0) {
                firstRank = r;
                firstOp = next[r];
            }
            if (shown++ == 8) {
                waits.append("; ...");
                break;
            }
            int sender = matching.peerRank(r, next[r]);
            int putIndex = matching.peerOp(r, next[r]);
            if (waits.length() > 0) {
                waits.append("; ");
            }
            if (ops.get(next[r]) instanceof Op.AwaitFlag a) {
                waits.append("rank ").append(r).append(" op ").append(next[r]).append(" awaits rank ").append(a.peer())
                        .append("'s node flag ").append(a.flag()).append(" (its op ").append(putIndex)
                        .append("), but rank ").append(sender).append(" is stuck at op ").append(next[sender]);
                continue;
            }
            if (ops.get(next[r]) instanceof Op.Multicast m) {
                waits.append("rank ").append(r).append(" op ").append(next[r]).append(" waits in a Multicast from rank ")
                        .append(m.root()).append(" for every rank to reach it");
                continue;
            }
            Op.Recv v = (Op.Recv) ops.get(next[r]);
            waits.append("rank ").append(r).append(" op ").append(next[r]).append(" waits for rank ").append(sender)
                    .append("'s put tag ").append(v.tag()).append(" (its op ").append(putIndex).append("), but rank ")
                    .append(sender).append(" is stuck at op ").append(next[sender]);
            if (next[sender] < programs.get(sender).ops().size()
                    && programs.get(sender).ops().get(next[sender]) instanceof Op.Recv w) {
                waits.append(" waiting for rank ").append(w.peer()).append(" tag ").append(w.tag());
            }
        }
        sink.add(ScheduleChecker.Rule.DEADLOCK, firstRank, firstOp, "no rank can progress: " + waits);
    }

    /** Matched partners of every Put and Recv: the peer's rank and op index. */
    static final class Matching {
        private final int[][] peerRank;
        private final int[][] peerOp;

        Matching(List<RankProgram> programs) {
            peerRank = new int[programs.size()][];
            peerOp = new int[programs.size()][];
            for (int r = 0; r < programs.size(); r++) {
                int ops = programs.get(r).ops().size();
                peerRank[r] = new int[ops];
                peerOp[r] = new int[ops];
                Arrays.fill(peerRank[r], -1);
            }
        }

        /** An AwaitFlag's Publish: one-sided, as many ranks may await one raise. */
        void linkAwait(int awaitRank, int awaitOp, int publishRank, int publishOp) {
            peerRank[awaitRank][awaitOp] = publishRank;
            peerOp[awaitRank][awaitOp] = publishOp;
        }

        void link(int putRank, int putOp, int recvRank, int recvOp) {
            peerRank[putRank][putOp] = recvRank;
            peerOp[putRank][putOp] = recvOp;
            peerRank[recvRank][recvOp] = putRank;
            peerOp[recvRank][recvOp] = putOp;
        }

        int peerRank(int rank, int op) {
            return peerRank[rank][op];
        }

        int peerOp(int rank, int op) {
            return peerOp[rank][op];
        }
    }

    /** Where violations go; the checker caps how many it keeps. */
    interface ViolationSink {
        void add(ScheduleChecker.Rule rule, int rank, int opIndex, String message);
    }
}
