package io.railcoll.schedule;

import java.util.Arrays;
import java.util.List;

/**
 * Runs every rank's program over {@link SymbolicBuffer}s, the way the engine would but without time: each rank runs
 * until it reaches a Recv whose put has not been issued, and passes repeat until no rank can move. A put's data is
 * taken when it is issued and lands when its Recv is reached; the hazard rules (checked separately) are what make
 * any real timing give the same bytes. Alongside, it keeps vector clocks so the checker can ask whether one event
 * happens before another. Package-private helper of {@link ScheduleChecker}; one instance per check.
 */
final class SymbolicExecution {

    private final Shape shape;
    private final List<RankProgram> programs;
    private final Matching matching;
    private final ViolationSink sink;
    private final SymbolicBuffer[][] buffers;
    private final int[] next;
    /** Per rank: op indices of its Recvs in program order, and the vector clock right after each. */
    private final int[][] receiveIndex;
    private final int[][][] receiveClock;
    private final int[] receiveCount;
    private final int[][][] putClock;
    private final List<SymbolicBuffer.Piece>[][] putData;

    @SuppressWarnings("unchecked")
    SymbolicExecution(Shape shape, List<RankProgram> programs, Matching matching, ViolationSink sink) {
        this.shape = shape;
        this.programs = programs;
        this.matching = matching;
        this.sink = sink;
        int n = shape.size();
        buffers = new SymbolicBuffer[n][Buffer.values().length];
        next = new int[n];
        receiveIndex = new int[n][];
        receiveClock = new int[n][][];
        receiveCount = new int[n];
        putClock = new int[n][][];
        putData = new List[n][];
        long b = shape.blockBytes();
        for (int r = 0; r < n; r++) {
            for (Buffer buffer : Buffer.values()) {
                buffers[r][buffer.ordinal()] = new SymbolicBuffer();
            }
            buffers[r][Buffer.SEND.ordinal()].fillWithOrigin(shape.collective().sendBytes(b, n), r, Buffer.SEND);
            if (shape.collective() == Collective.BROADCAST && r == shape.root()) {
                buffers[r][Buffer.RECV.ordinal()].fillWithOrigin(b, r, Buffer.RECV);
            }
            int ops = programs.get(r).ops().size();
            int receives = 0;
            for (Op op : programs.get(r).ops()) {
                if (op instanceof Op.Recv) {
                    receives++;
                }
            }
            receiveIndex[r] = new int[receives];
            receiveClock[r] = new int[receives][];
            putClock[r] = new int[ops][];
            putData[r] = new List[ops];
        }
    }

    /** Runs to completion or deadlock; returns true when every rank finished. */
    boolean run() {
        int n = shape.size();
        int[][] clock = new int[n][n];
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
                        int[] sent = putClock[sender][putIndex];
                        if (sent == null) {
                            break;
                        }
                        for (int q = 0; q < n; q++) {
                            clock[r][q] = Math.max(clock[r][q], sent[q]);
                        }
                        clock[r][r] = i + 1;
                        buffer(r, v.dst()).write(v.dstOffset(), putData[sender][putIndex]);
                        receiveIndex[r][receiveCount[r]] = i;
                        receiveClock[r][receiveCount[r]++] = clock[r].clone();
                    } else if (op instanceof Op.Put p) {
                        clock[r][r] = i + 1;
                        putClock[r][i] = clock[r].clone();
                        putData[r][i] = readDefined(r, i, p.src(), p.srcOffset(), p.length());
                    } else if (op instanceof Op.Copy c) {
                        clock[r][r] = i + 1;
                        List<SymbolicBuffer.Piece> data = readDefined(r, i, c.src(), c.srcOffset(), c.length());
                        buffer(r, c.dst()).write(c.dstOffset(), data);
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

    SymbolicBuffer buffer(int rank, Buffer buffer) {
        return buffers[rank][buffer.ordinal()];
    }

    /** True when op {@code a} of rank {@code q} happens before op {@code i} of rank {@code r}. */
    boolean happensBefore(int q, int a, int r, int i) {
        if (q == r) {
            return a < i;
        }
        int lo = 0;
        int hi = receiveCount[r] - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (receiveIndex[r][mid] <= i) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && receiveClock[r][found][q] > a;
    }

    /** Number of rank {@code q}'s ops known to rank {@code r} when it executes its op {@code i}. */
    int knownOps(int r, int i, int q) {
        for (int j = receiveCount[r] - 1; j >= 0; j--) {
            if (receiveIndex[r][j] <= i) {
                return receiveClock[r][j][q];
            }
        }
        return 0;
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
            Op.Recv v = (Op.Recv) ops.get(next[r]);
            int sender = matching.peerRank(r, next[r]);
            int putIndex = matching.peerOp(r, next[r]);
            if (waits.length() > 0) {
                waits.append("; ");
            }
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
