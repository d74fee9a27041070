package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * Finds races on a rank's RECV and TEMP buffers. Every access has a window in which it may touch its bytes:
 * <ul>
 *   <li>a Copy or Reduce, only at its own op (a Reduce reads and writes its destination: one write access);</li>
 *   <li>a Put reads its source from its op until the receiver reaches the matching Recv (the only completion a
 *       schedule can observe);</li>
 *   <li>a Recv's data may land from the moment its sender issues the put until the Recv is reached.</li>
 * </ul>
 * Two accesses that overlap in bytes, of which at least one writes, race unless one window's end happens before
 * the other's start. SEND is never written (Op's constructors and the checker's structure pass ensure it), so it is
 * not scanned. A NodeWrite reads its source, and a NodeRead writes its destination, at its own op.
 *
 * <p>The node buffer of each node is scanned the same way over the node's ranks ({@link #findNodeRaces}): every
 * NodeWrite and NodeRead touches it at its own op, so two of them on overlapping bytes, one a write, must be ordered
 * by happens-before (a Publish seen by an AwaitFlag, or messages). Package-private helper of {@link ScheduleChecker}.
 */
final class HazardFinder {

    /**
     * One access's window; {@code description} says what it is, made only for a report (building every access's
     * text up front was an eighth of the schedule-property tests' processor time).
     */
    private record Access(long start, long end, boolean write, int opIndex, int fromRank, int fromOp, int toRank,
                          int toOp, Supplier<String> description) {
        String what() {
            return description.get();
        }
    }

    private HazardFinder() {
    }

    static void find(Shape shape, List<RankProgram> programs, SymbolicExecution.Matching matching,
                     SymbolicExecution execution, SymbolicExecution.ViolationSink sink) {
        List<List<Access>> intoRecv = peerAccesses(shape, programs);
        for (int r = 0; r < shape.size(); r++) {
            List<Access> recv = new ArrayList<>(intoRecv.get(r));
            List<Access> temp = new ArrayList<>();
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                int at = i;
                int rank = r;
                switch (op) {
                    case Op.Copy c -> {
                        Supplier<String> what = () -> "op " + at + " (Copy " + c.src() + "[" + c.srcOffset() + "," + (c.srcOffset() + c.length())
                                + ") -> " + c.dst() + "[" + c.dstOffset() + "," + (c.dstOffset() + c.length()) + "))";
                        add(recv, temp, c.src(), c.srcOffset(), c.length(), false, i, r, i, r, i, what);
                        add(recv, temp, c.dst(), c.dstOffset(), c.length(), true, i, r, i, r, i, what);
                    }
                    case Op.Reduce x -> {
                        Supplier<String> what = () -> "op " + at + " (Reduce " + x.src() + "[" + x.srcOffset() + "," + (x.srcOffset() + x.length())
                                + ") into " + x.dst() + "[" + x.dstOffset() + "," + (x.dstOffset() + x.length()) + "))";
                        add(recv, temp, x.src(), x.srcOffset(), x.length(), false, i, r, i, r, i, what);
                        add(recv, temp, x.dst(), x.dstOffset(), x.length(), true, i, r, i, r, i, what);
                    }
                    case Op.Put p -> {
                        Supplier<String> what = () -> "op " + at + " (Put to rank " + p.peer() + " tag " + p.tag() + " reading " + p.src()
                                + "[" + p.srcOffset() + "," + (p.srcOffset() + p.length()) + ") until rank " + p.peer()
                                + " reaches its Recv, op " + matching.peerOp(rank, at) + ")";
                        add(recv, temp, p.src(), p.srcOffset(), p.length(), false, i, r, i, p.peer(), matching.peerOp(r, i), what);
                    }
                    case Op.NodeWrite w -> add(recv, temp, w.src(), w.srcOffset(), w.length(), false, i, r, i, r, i,
                            () -> "op " + at + " (NodeWrite " + w.src() + "[" + w.srcOffset() + "," + (w.srcOffset() + w.length())
                                    + ") into the node buffer)");
                    case Op.NodeRead w -> add(recv, temp, w.dst(), w.dstOffset(), w.length(), true, i, r, i, r, i,
                            () -> "op " + at + " (NodeRead of the node buffer into " + w.dst() + "[" + w.dstOffset() + ","
                                    + (w.dstOffset() + w.length()) + "))");
                    // A raise reads the bytes it carries, and an await writes them, at its own op (decision 0202).
                    case Op.Publish f -> add(recv, temp, f.src(), f.srcOffset(), f.length(), false, i, r, i, r, i,
                            () -> "op " + at + " (Publish of flag " + f.flag() + " carrying " + f.src() + "["
                                    + f.srcOffset() + "," + (f.srcOffset() + f.length()) + "))");
                    case Op.AwaitFlag a -> add(recv, temp, a.dst(), a.dstOffset(), a.length(), true, i, r, i, r, i,
                            () -> "op " + at + " (AwaitFlag of rank " + a.peer() + "'s flag " + a.flag() + " reading its"
                                    + " payload into " + a.dst() + "[" + a.dstOffset() + "," + (a.dstOffset()
                                    + a.length()) + "))");
                    // Reads (root) or writes (others) its range only while it is the op being run.
                    case Op.Multicast m -> add(recv, temp, m.buffer(), m.offset(), m.length(), m.root() != r, i, r, i,
                            r, i, () -> "op " + at + " (Multicast from rank " + m.root() + " of " + m.buffer() + "["
                                    + m.offset() + "," + (m.offset() + m.length()) + "))");
                    case Op.PeerRead x -> add(recv, temp, x.dst(), x.dstOffset(), x.length(), true, i, r, i, r, i,
                            () -> "op " + at + " (PeerRead of rank " + x.peer() + "'s " + x.src() + " into " + x.dst() + "["
                                    + x.dstOffset() + "," + (x.dstOffset() + x.length()) + "))");
                    case Op.PeerWrite x -> add(recv, temp, x.src(), x.srcOffset(), x.length(), false, i, r, i, r, i,
                            () -> "op " + at + " (PeerWrite of " + x.src() + "[" + x.srcOffset() + "," + (x.srcOffset()
                                    + x.length()) + ") into rank " + x.peer() + "'s RECV)");
                    case Op.Recv v -> {
                        int sender = matching.peerRank(r, i);
                        int putOp = matching.peerOp(r, i);
                        Supplier<String> what = () -> "op " + at + " (Recv from rank " + v.peer() + " tag " + v.tag() + " into " + v.dst() + "["
                                + v.dstOffset() + "," + (v.dstOffset() + v.length()) + "), which may land as soon as rank "
                                + sender + " issues its op " + putOp + ")";
                        add(recv, temp, v.dst(), v.dstOffset(), v.length(), true, i, sender, putOp, r, i, what);
                    }
                }
            }
            scan(r, Buffer.RECV, recv, execution, sink);
            scan(r, Buffer.TEMP, temp, execution, sink);
        }
    }

    /**
     * Per rank, the accesses node-mates' single-copy steps make to its RECV: each touches the bytes at its own op,
     * so the owner's own accesses to them must be ordered with it like any other (reported as PEER_RACE).
     */
    private static List<List<Access>> peerAccesses(Shape shape, List<RankProgram> programs) {
        List<List<Access>> into = new ArrayList<>();
        for (int r = 0; r < shape.size(); r++) {
            into.add(new ArrayList<>());
        }
        for (int r = 0; r < shape.size(); r++) {
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                int rank = r;
                int at = i;
                if (ops.get(i) instanceof Op.PeerRead x && x.src() == Buffer.RECV && x.length() > 0) {
                    into.get(x.peer()).add(new Access(x.srcOffset(), x.srcOffset() + x.length(), false, i, r, i, r, i,
                            () -> "rank " + rank + " op " + at + " (PeerRead of this rank's RECV[" + x.srcOffset() + ","
                                    + (x.srcOffset() + x.length()) + "))"));
                } else if (ops.get(i) instanceof Op.PeerWrite x && x.length() > 0) {
                    into.get(x.peer()).add(new Access(x.dstOffset(), x.dstOffset() + x.length(), true, i, r, i, r, i,
                            () -> "rank " + rank + " op " + at + " (PeerWrite into this rank's RECV[" + x.dstOffset() + ","
                                    + (x.dstOffset() + x.length()) + "))"));
                }
            }
        }
        return into;
    }

    /**
     * The lifetime rules of single-copy steps: an access to rank O's buffers comes after one of O's Publishes (the
     * engine announces O's addresses just before O's first; earlier, a node-mate would find the previous call's), and
     * before O's last op (O must not return, and let its caller reuse the buffer, while the access may still run).
     */
    static void findPeerRaces(List<RankProgram> programs, SymbolicExecution execution,
                              SymbolicExecution.ViolationSink sink) {
        for (int r = 0; r < programs.size(); r++) {
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                int owner;
                String what;
                if (ops.get(i) instanceof Op.PeerRead x) {
                    owner = x.peer();
                    what = "op " + i + " (PeerRead of rank " + owner + "'s " + x.src() + ")";
                } else if (ops.get(i) instanceof Op.PeerWrite x) {
                    owner = x.peer();
                    what = "op " + i + " (PeerWrite into rank " + owner + "'s RECV)";
                } else {
                    continue;
                }
                List<Op> ownerOps = programs.get(owner).ops();
                int publish = -1;
                for (int j = 0; j < ownerOps.size() && publish < 0; j++) {
                    if (ownerOps.get(j) instanceof Op.Publish) {
                        publish = j;
                    }
                }
                if (publish < 0 || !execution.happensBefore(owner, publish, r, i)) {
                    sink.add(ScheduleChecker.Rule.PEER_RACE, r, i, what + " may run before rank " + owner
                            + " published anything in this call, so it may find a stale address (the buffers of an"
                            + " earlier call): await one of rank " + owner + "'s Publishes first");
                }
                int last = ownerOps.size() - 1;
                if (last < 0 || !execution.happensBefore(r, i, owner, last)) {
                    sink.add(ScheduleChecker.Rule.PEER_RACE, r, i, "rank " + owner + " may return, and let its caller"
                            + " reuse the buffer, before " + what + " is done: rank " + owner + " must await a Publish"
                            + " that rank " + r + " makes after the access");
                }
            }
        }
    }

    /** Races on each node's buffer among the node's ranks (see the class comment). */
    static void findNodeRaces(Shape shape, List<RankProgram> programs, SymbolicExecution execution,
                              SymbolicExecution.ViolationSink sink) {
        for (int node = 0; node < shape.placement().nodeCount(); node++) {
            List<Access> accesses = new ArrayList<>();
            for (int r : shape.placement().ranksOf(node)) {
                List<Op> ops = programs.get(r).ops();
                for (int i = 0; i < ops.size(); i++) {
                    int rank = r;
                    int at = i;
                    if (ops.get(i) instanceof Op.NodeWrite w && w.length() > 0) {
                        accesses.add(new Access(w.nodeOffset(), w.nodeOffset() + w.length(), true, i, r, i, r, i,
                                () -> "rank " + rank + " op " + at + " (NodeWrite of node buffer [" + w.nodeOffset() + ","
                                        + (w.nodeOffset() + w.length()) + "))"));
                    } else if (ops.get(i) instanceof Op.NodeRead v && v.length() > 0) {
                        accesses.add(new Access(v.nodeOffset(), v.nodeOffset() + v.length(), false, i, r, i, r, i,
                                () -> "rank " + rank + " op " + at + " (NodeRead of node buffer [" + v.nodeOffset() + ","
                                        + (v.nodeOffset() + v.length()) + "))"));
                    }
                }
            }
            int n = node;
            forConflicts(accesses, (earlier, current) -> {
                if (!endsBefore(execution, earlier, current) && !endsBefore(execution, current, earlier)) {
                    Access reader = current.write() && !earlier.write() ? earlier : current;
                    Access other = reader == current ? earlier : current;
                    String why = reader.write() ? "two writes that nothing orders"
                            : "no Publish/AwaitFlag chain orders the read after the write, or the write after the read"
                            + " (read before publish, or the bytes reused while a node-mate may still read them)";
                    sink.add(ScheduleChecker.Rule.NODE_RACE, reader.fromRank(), reader.opIndex(),
                            reader.what() + " and " + other.what() + " overlap on node " + n + ": " + why);
                }
            });
        }
    }

    /** Calls {@code conflict} for every two accesses that overlap in bytes, one of them a write (earlier first). */
    private static void forConflicts(List<Access> accesses, java.util.function.BiConsumer<Access, Access> conflict) {
        accesses.sort(Comparator.comparingLong(Access::start));
        List<Access> active = new ArrayList<>();
        for (Access current : accesses) {
            active.removeIf(a -> a.end() <= current.start());
            for (Access earlier : active) {
                if (earlier.write() || current.write()) {
                    conflict.accept(earlier, current);
                }
            }
            active.add(current);
        }
    }

    private static void add(List<Access> recv, List<Access> temp, Buffer buffer, long offset, long length, boolean write,
                            int opIndex, int fromRank, int fromOp, int toRank, int toOp, Supplier<String> what) {
        if (length == 0 || buffer == Buffer.SEND) {
            return;
        }
        Access access = new Access(offset, offset + length, write, opIndex, fromRank, fromOp, toRank, toOp, what);
        (buffer == Buffer.RECV ? recv : temp).add(access);
    }

    private static boolean isPeer(int owner, Access access) {
        return access.fromRank() != owner && access.fromRank() == access.toRank();
    }

    private static boolean endsBefore(SymbolicExecution execution, Access first, Access second) {
        return execution.happensBefore(first.toRank(), first.toOp(), second.fromRank(), second.fromOp());
    }

    private static void scan(int rank, Buffer buffer, List<Access> accesses, SymbolicExecution execution,
                             SymbolicExecution.ViolationSink sink) {
        forConflicts(accesses, (earlier, current) -> {
            // A node-mate's single-copy step into this rank's buffer (the only accesses starting and ending on
            // another rank): the owner filled the bytes too late, or reused them too early.
            boolean peer = isPeer(rank, earlier) || isPeer(rank, current);
            if (!peer && earlier.opIndex() == current.opIndex()) {
                sink.add(ScheduleChecker.Rule.HAZARD, rank, current.opIndex(),
                        current.what() + " reads and writes overlapping bytes of " + buffer);
                return;
            }
            // Ask the question program order can answer first; the other needs a causal-past search.
            boolean ordered = earlier.toRank() == current.fromRank()
                    ? endsBefore(execution, earlier, current) || endsBefore(execution, current, earlier)
                    : endsBefore(execution, current, earlier) || endsBefore(execution, earlier, current);
            if (!ordered) {
                Access first = earlier.opIndex() < current.opIndex() ? earlier : current;
                Access second = first == earlier ? current : earlier;
                long from = Math.max(earlier.start(), current.start());
                long to = Math.min(earlier.end(), current.end());
                sink.add(peer ? ScheduleChecker.Rule.PEER_RACE : ScheduleChecker.Rule.HAZARD, rank, second.opIndex(),
                        second.what() + " and " + first.what() + " both touch " + buffer + "[" + from + "," + to
                                + ") and nothing orders one after the other");
            }
        });
    }
}
