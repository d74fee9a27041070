package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * Proves a schedule right for one shape, symbolically: it builds every rank's program and runs them over byte
 * ranges that remember where their bytes came from, so a check costs the same for 1-byte and 65537-byte blocks.
 *
 * <p>It checks, in this order (a failing stage stops the later ones that depend on it):
 * <ol>
 *   <li>structure: program ranks, peers in range and not self, ranges inside SEND/RECV/TEMP, SEND never written,
 *       a Copy's or Reduce's source and destination not overlapping;</li>
 *   <li>matching: every Put has exactly one Recv with the same (sender, receiver, tag) and length, and vice versa;</li>
 *   <li>progress: running each rank until it blocks on a Recv whose put is not issued ends with every rank
 *       finished; otherwise a deadlock, reported as who waits for whom;</li>
 *   <li>no read of bytes nothing has written;</li>
 *   <li>hazards: no two accesses to the same bytes of RECV or TEMP, one of them a write, whose windows are not
 *       ordered by happens-before (see {@link HazardFinder}; a Recv may land any time after its put is issued, a
 *       Put reads until its Recv is reached);</li>
 *   <li>result: every rank's RECV holds exactly the bytes {@link Collective} prescribes, copied and not combined;
 *       for a barrier, no rank can finish before every rank has started; for programs that combine
 *       ({@link #checkReduction}), the {@link ReductionResult}: every rank's contribution exactly once, in rank order
 *       where the operator needs it;</li>
 *   <li>node steps (decision 0101): an AwaitFlag names a node-mate and a raise its Publishes make; the node
 *       buffer is one per node, shared by its ranks; no two accesses to the same bytes of it, one a write, that no
 *       Publish/AwaitFlag (or message) chain orders ({@link Rule#NODE_RACE}: a read before the write it needs is
 *       published, or a write over bytes a node-mate may still be reading); a Publish that carries bytes in its
 *       flag's line does so at most once per flag and call ({@link Rule#NODE_RACE}), and an AwaitFlag that reads
 *       them names that raise and its length ({@link Rule#MATCHING}); the bytes are taken when the raise runs and
 *       land at the await, so the result check covers them (decision 0202);</li>
 *   <li>single-copy steps (decision 0143): a PeerRead or PeerWrite reaches a node-mate of its node, within that
 *       rank's buffer; it comes after one of the owner's Publishes (the engine announces the buffers' addresses just
 *       before it), before the owner's last op, and is ordered with every access of the owner to the same bytes
 *       ({@link Rule#PEER_RACE});</li>
 *   <li>cost: the {@link CostTerms} measured on the programs' {@link Traffic} equal the algorithm's claim.</li>
 * </ol>
 * Stateless and thread-safe; used by tests, the CLI and the simulator.
 */
public final class ScheduleChecker {

    /** Violations kept per report; the count of all is kept too. */
    public static final int MAX_REPORTED = 20;

    public enum Rule {
        /** An algorithm threw while building a program or its cost. */
        PROGRAM,
        STRUCTURE,
        MATCHING,
        DEADLOCK,
        UNINITIALIZED_READ,
        HAZARD,
        /** Two accesses to the same bytes of a node buffer, one a write, that nothing orders. */
        NODE_RACE,
        /**
         * A single-copy step (decision 0143) that reaches a node-mate's buffer before the owner published it in this
         * call (a stale address) or filled the bytes it reads, or that the owner's end does not wait for (the owner
         * could return, and its caller reuse the buffer, while the access still runs).
         */
        PEER_RACE,
        RESULT,
        BARRIER,
        COST
    }

    /** One thing wrong; {@code rank} and {@code opIndex} are -1 when not about one op. */
    public record Violation(Rule rule, int rank, int opIndex, String message) {
        @Override
        public String toString() {
            String where = rank < 0 ? "" : opIndex < 0 ? " rank " + rank + ":" : " rank " + rank + " op " + opIndex + ":";
            return "[" + rule + "]" + where + " " + message;
        }
    }

    /** The outcome of one check: violations (at most {@link #MAX_REPORTED}), their total, and the cost terms. */
    public record Report(String algorithm, Shape shape, List<Violation> violations, int violationCount,
                         CostTerms measured, CostTerms claimed) {
        public Report {
            violations = List.copyOf(violations);
        }

        public boolean ok() {
            return violationCount == 0;
        }

        /** True when some violation follows {@code rule}. */
        public boolean violates(Rule rule) {
            return violations.stream().anyMatch(v -> v.rule() == rule);
        }

        /** Returns this report if it has no violation, else throws with all reported violations. */
        public Report orThrow() {
            if (!ok()) {
                throw new ScheduleViolationException(describe());
            }
            return this;
        }

        public String describe() {
            StringBuilder sb = new StringBuilder(algorithm).append(" on ").append(describe(shape)).append(": ");
            if (ok()) {
                return sb.append("ok, ").append(measured == null ? "" : measured.numbers()).toString();
            }
            sb.append(violationCount).append(violationCount == 1 ? " violation" : " violations");
            for (Violation v : violations) {
                sb.append("\n  ").append(v);
            }
            if (violationCount > violations.size()) {
                sb.append("\n  ... ").append(violationCount - violations.size()).append(" more");
            }
            return sb.toString();
        }

        /** E.g. {@code allgather N=9 placement=3,4,2 k=2 b=1000 root=0}. */
        public static String describe(Shape shape) {
            return shape.collective().id() + " N=" + shape.size() + " placement=" + shape.placement().describe() + " k="
                    + shape.ports() + " b=" + shape.blockBytes() + " root=" + shape.root()
                    + (shape.counts() == null ? "" : " counts=" + shape.counts());
        }
    }

    private ScheduleChecker() {
    }

    /**
     * Checks {@code algorithm} on {@code shape}, including that its {@link Algorithm#cost} matches what its
     * programs do.
     *
     * @throws IllegalArgumentException if the algorithm does not run this shape (its stated reason)
     */
    public static Report check(Algorithm algorithm, Shape shape) {
        if (algorithm.collective() != shape.collective()) {
            throw new IllegalArgumentException(algorithm.id() + " runs " + algorithm.collective().id() + ", not "
                    + shape.collective().id());
        }
        requireRuns(algorithm, shape);
        Collector collector = new Collector();
        CostTerms claimed = claimedCost(algorithm, shape, collector);
        ReductionResult reduction = ReductionResult.of(shape);
        return run(algorithm.id(), shape, r -> algorithm.program(shape, r), claimed, collector, reduction, false);
    }

    private static void requireRuns(Algorithm algorithm, Shape shape) {
        algorithm.unsupportedReason(shape).ifPresent(reason -> {
            throw new IllegalArgumentException(algorithm.id() + " cannot run " + Report.describe(shape) + ": " + reason);
        });
    }

    /** The algorithm's cost for {@code shape}, or null with a PROGRAM finding when {@code cost} throws. */
    private static CostTerms claimedCost(Algorithm algorithm, Shape shape, Collector collector) {
        try {
            return algorithm.cost(shape);
        } catch (RuntimeException e) {
            collector.add(Rule.PROGRAM, -1, -1, "cost(shape) threw " + e);
            return null;
        }
    }

    /**
     * Checks {@code algorithm} on {@code shape} in place (decision 0220): every rank's own block starts in its RECV
     * ({@link InPlace#ownOffset}) and SEND is that block ({@link InPlace#aliased}); every rule of {@link #check}
     * holds, so no op writes the own block with other bytes or while a put, copy or node-mate may still read it
     * there. What an {@link OwnBlockInPlace} algorithm claims.
     *
     * @throws IllegalArgumentException if the collective has no such in-place form, or the algorithm does not run
     *                                  this shape
     */
    public static Report checkInPlace(Algorithm algorithm, Shape shape) {
        if (!InPlace.applies(shape.collective()) || algorithm.collective() != shape.collective()) {
            throw new IllegalArgumentException(algorithm.id() + " on " + Report.describe(shape)
                    + ": no in-place form with the own block in RECV");
        }
        requireRuns(algorithm, shape);
        Collector collector = new Collector();
        CostTerms claimed = claimedCost(algorithm, shape, collector);
        return run(algorithm.id() + " in place", shape, r -> InPlace.aliased(shape, algorithm.program(shape, r)),
                claimed, collector, null, true);
    }

    /**
     * Checks hand-built programs (tests, experiments) against what {@code shape}'s collective prescribes.
     * {@code claimed} may be null to skip the cost comparison; the measured cost is reported either way.
     */
    public static Report check(String label, Shape shape, IntFunction<RankProgram> programs, CostTerms claimed) {
        return run(label, shape, programs, claimed, new Collector(), ReductionResult.of(shape), false);
    }

    /**
     * Checks programs that combine data ({@link Op.Reduce}): every rule as {@link #check}, except that the result
     * is {@code expected} instead of what {@code shape}'s collective prescribes. The shape supplies the placement,
     * ports and the SEND/RECV sizes ({@link Collective#sendBytes}, {@link Collective#recvBytes}).
     */
    public static Report checkReduction(String label, Shape shape, IntFunction<RankProgram> programs,
                                        CostTerms claimed, ReductionResult expected) {
        return run(label, shape, programs, claimed, new Collector(), java.util.Objects.requireNonNull(expected), false);
    }

    private static Report run(String label, Shape shape, IntFunction<RankProgram> source, CostTerms claimed,
                              Collector collector, ReductionResult reduction, boolean ownBlockInRecv) {
        int n = shape.size();
        List<RankProgram> programs = new ArrayList<>(n);
        for (int r = 0; r < n; r++) {
            RankProgram program;
            try {
                program = Objects.requireNonNull(source.apply(r), "program is null");
            } catch (RuntimeException e) {
                collector.add(Rule.PROGRAM, r, -1, "program(shape, " + r + ") threw " + e);
                program = new RankProgram(r, List.of(), 0);
            }
            programs.add(program);
        }
        CostTerms measured = null;
        if (checkStructure(shape, programs, collector)) {
            SymbolicExecution.Matching matching = match(shape, programs, collector);
            if (matching != null) {
                SymbolicExecution execution = new SymbolicExecution(shape, programs, matching, collector,
                        ownBlockInRecv);
                if (execution.run()) {
                    HazardFinder.find(shape, programs, matching, execution, collector);
                    HazardFinder.findNodeRaces(shape, programs, execution, collector);
                    HazardFinder.findPeerRaces(programs, execution, collector);
                    if (reduction == null) {
                        checkResult(shape, execution, collector);
                    } else {
                        checkReductionResult(shape, reduction, execution, collector);
                    }
                    checkBarrier(shape, programs, execution, collector);
                    measured = measure(shape, programs, claimed, collector);
                }
            }
        }
        return new Report(label, shape, collector.kept, collector.count, measured, claimed);
    }

    private static CostTerms measure(Shape shape, List<RankProgram> programs, CostTerms claimed, Collector collector) {
        CostTerms measured;
        try {
            measured = Traffic.of(programs).cost(shape.placement(), shape.ports(), "measured");
        } catch (IllegalStateException e) {
            collector.add(Rule.COST, -1, -1, e.getMessage());
            return null;
        }
        if (claimed != null && !claimed.sameNumbers(measured)) {
            collector.add(Rule.COST, -1, -1, "claimed " + claimed.numbers() + " but the programs measure "
                    + measured.numbers());
        }
        return measured;
    }

    private static long bufferBytes(Shape shape, RankProgram program, int rank, Buffer buffer) {
        return switch (buffer) {
            case SEND -> shape.sendBytes(rank);
            case RECV -> shape.recvBytes(rank);
            case TEMP -> program.tempBytes();
        };
    }

    private static boolean checkStructure(Shape shape, List<RankProgram> programs, Collector c) {
        int before = c.count;
        int n = shape.size();
        for (int r = 0; r < n; r++) {
            RankProgram program = programs.get(r);
            if (program.rank() != r) {
                c.add(Rule.STRUCTURE, r, -1, "program says it is for rank " + program.rank());
            }
            List<Op> ops = program.ops();
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                switch (op) {
                    case Op.Put p -> {
                        checkPeer(r, i, p.peer(), n, c);
                        checkRange(shape, program, r, i, "Put source", p.src(), p.srcOffset(), p.length(), c);
                    }
                    case Op.Recv v -> {
                        checkPeer(r, i, v.peer(), n, c);
                        checkWritable(r, i, v.dst(), c);
                        checkRange(shape, program, r, i, "Recv destination", v.dst(), v.dstOffset(), v.length(), c);
                    }
                    case Op.Copy cp -> {
                        checkWritable(r, i, cp.dst(), c);
                        checkRange(shape, program, r, i, "Copy source", cp.src(), cp.srcOffset(), cp.length(), c);
                        checkRange(shape, program, r, i, "Copy destination", cp.dst(), cp.dstOffset(), cp.length(), c);
                        if (cp.src() == cp.dst() && cp.length() > 0 && cp.srcOffset() < cp.dstOffset() + cp.length()
                                && cp.dstOffset() < cp.srcOffset() + cp.length()) {
                            c.add(Rule.STRUCTURE, r, i, "Copy source and destination overlap in " + cp.src());
                        }
                    }
                    case Op.Reduce x -> {
                        checkWritable(r, i, x.dst(), c);
                        checkRange(shape, program, r, i, "Reduce source", x.src(), x.srcOffset(), x.length(), c);
                        checkRange(shape, program, r, i, "Reduce destination", x.dst(), x.dstOffset(), x.length(), c);
                        if (x.src() == x.dst() && x.length() > 0 && x.srcOffset() < x.dstOffset() + x.length()
                                && x.dstOffset() < x.srcOffset() + x.length()) {
                            c.add(Rule.STRUCTURE, r, i, "Reduce source and destination overlap in " + x.src());
                        }
                    }
                    case Op.NodeWrite w -> checkRange(shape, program, r, i, "NodeWrite source", w.src(), w.srcOffset(),
                            w.length(), c);
                    case Op.NodeRead w -> {
                        checkWritable(r, i, w.dst(), c);
                        checkRange(shape, program, r, i, "NodeRead destination", w.dst(), w.dstOffset(), w.length(), c);
                    }
                    case Op.Publish f -> {
                        if (f.length() > 0) {
                            checkRange(shape, program, r, i, "Publish payload source", f.src(), f.srcOffset(),
                                    f.length(), c);
                        }
                    }
                    case Op.AwaitFlag a -> {
                        if (a.peer() >= n || a.peer() == r || !shape.placement().sameNode(r, a.peer())) {
                            c.add(Rule.STRUCTURE, r, i, "awaits a node flag of rank " + a.peer()
                                    + ", which is not another rank of its node");
                        }
                        if (a.length() > 0) {
                            checkWritable(r, i, a.dst(), c);
                            checkRange(shape, program, r, i, "AwaitFlag payload destination", a.dst(), a.dstOffset(),
                                    a.length(), c);
                        }
                    }
                    case Op.Multicast m -> {
                        if (m.root() >= n) {
                            c.add(Rule.STRUCTURE, r, i, "Multicast root " + m.root() + " is not a rank (N=" + n + ")");
                        } else if (m.root() != r) {
                            checkWritable(r, i, m.buffer(), c);
                        }
                        checkRange(shape, program, r, i, "Multicast range", m.buffer(), m.offset(), m.length(), c);
                    }
                    case Op.PeerRead x -> {
                        checkNodeMate(shape, r, i, x.peer(), c);
                        checkWritable(r, i, x.dst(), c);
                        checkRange(shape, program, r, i, "PeerRead destination", x.dst(), x.dstOffset(), x.length(), c);
                        if (x.peer() >= 0 && x.peer() < n) {
                            checkRange(shape, programs.get(x.peer()), x.peer(), i, "PeerRead source (rank " + r
                                    + " op " + i + ")", x.src(), x.srcOffset(), x.length(), c);
                        }
                    }
                    case Op.PeerWrite x -> {
                        checkNodeMate(shape, r, i, x.peer(), c);
                        checkRange(shape, program, r, i, "PeerWrite source", x.src(), x.srcOffset(), x.length(), c);
                        if (x.peer() >= 0 && x.peer() < n) {
                            checkRange(shape, programs.get(x.peer()), x.peer(), i, "PeerWrite destination (rank "
                                    + r + " op " + i + ")", x.dst(), x.dstOffset(), x.length(), c);
                        }
                    }
                    case null -> c.add(Rule.STRUCTURE, r, i, "null op");
                }
            }
        }
        return c.count == before;
    }

    private static void checkPeer(int rank, int op, int peer, int n, Collector c) {
        if (peer < 0 || peer >= n) {
            c.add(Rule.STRUCTURE, rank, op, "peer " + peer + " is not a rank (N=" + n + ")");
        } else if (peer == rank) {
            c.add(Rule.STRUCTURE, rank, op, "puts to or receives from itself; use a Copy");
        }
    }

    private static void checkNodeMate(Shape shape, int rank, int op, int peer, Collector c) {
        if (peer >= shape.size() || peer == rank || !shape.placement().sameNode(rank, peer)) {
            c.add(Rule.STRUCTURE, rank, op, "reaches into the buffers of rank " + peer
                    + ", which is not another rank of its node");
        }
    }

    private static void checkWritable(int rank, int op, Buffer buffer, Collector c) {
        if (buffer == Buffer.SEND) {
            c.add(Rule.STRUCTURE, rank, op, "writes the SEND buffer");
        }
    }

    private static void checkRange(Shape shape, RankProgram program, int rank, int op, String what, Buffer buffer,
                                   long offset, long length, Collector c) {
        long size = bufferBytes(shape, program, rank, buffer);
        if (offset + length > size || offset + length < 0) {
            c.add(Rule.STRUCTURE, rank, op, what + " " + buffer + "[" + offset + "," + (offset + length)
                    + ") lies outside the " + size + "-byte " + buffer + " buffer");
        }
    }

    private static SymbolicExecution.Matching match(Shape shape, List<RankProgram> programs, Collector c) {
        int before = c.count;
        Map<MessageKey, int[]> puts = new HashMap<>();
        Map<MessageKey, int[]> recvs = new HashMap<>();
        for (int r = 0; r < shape.size(); r++) {
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                if (ops.get(i) instanceof Op.Put p) {
                    int[] prior = puts.putIfAbsent(new MessageKey(r, p.peer(), p.tag()), new int[] {r, i});
                    if (prior != null) {
                        c.add(Rule.MATCHING, r, i, "second Put to rank " + p.peer() + " with tag " + p.tag()
                                + " (first at op " + prior[1] + ")");
                    }
                } else if (ops.get(i) instanceof Op.Recv v) {
                    int[] prior = recvs.putIfAbsent(new MessageKey(v.peer(), r, v.tag()), new int[] {r, i});
                    if (prior != null) {
                        c.add(Rule.MATCHING, r, i, "second Recv from rank " + v.peer() + " with tag " + v.tag()
                                + " (first at op " + prior[1] + ")");
                    }
                }
            }
        }
        SymbolicExecution.Matching matching = new SymbolicExecution.Matching(programs);
        matchAwaits(programs, matching, c);
        matchMulticasts(programs, matching, c);
        for (Map.Entry<MessageKey, int[]> e : puts.entrySet()) {
            MessageKey key = e.getKey();
            int[] put = e.getValue();
            int[] recv = recvs.remove(key);
            if (recv == null) {
                c.add(Rule.MATCHING, put[0], put[1], "Put to rank " + key.receiver() + " with tag " + key.tag()
                        + " has no matching Recv");
                continue;
            }
            long putLength = ((Op.Put) programs.get(put[0]).ops().get(put[1])).length();
            long recvLength = ((Op.Recv) programs.get(recv[0]).ops().get(recv[1])).length();
            if (putLength != recvLength) {
                c.add(Rule.MATCHING, put[0], put[1], "Put to rank " + key.receiver() + " with tag " + key.tag() + " has "
                        + putLength + " bytes but the Recv (rank " + recv[0] + " op " + recv[1] + ") expects " + recvLength);
            }
            matching.link(put[0], put[1], recv[0], recv[1]);
        }
        for (Map.Entry<MessageKey, int[]> e : recvs.entrySet()) {
            int[] recv = e.getValue();
            c.add(Rule.MATCHING, recv[0], recv[1], "Recv from rank " + e.getKey().sender() + " with tag "
                    + e.getKey().tag() + " has no matching Put");
        }
        return c.count == before ? matching : null;
    }

    /**
     * Links every AwaitFlag to the Publish it waits for: its peer's count-th raise of that flag. A flag carries bytes
     * in at most one raise per call (a second would overwrite what node-mates may still read: {@link Rule#NODE_RACE}),
     * and an await that reads bytes names the raise that carried them, with their length (decision 0202): it then
     * reads exactly what the writer published in this call, and only once the raise is seen.
     */
    private static void matchAwaits(List<RankProgram> programs, SymbolicExecution.Matching matching, Collector c) {
        Map<Long, Integer> raises = new HashMap<>();
        for (int r = 0; r < programs.size(); r++) {
            int[] raised = new int[NodeBuffer.FLAGS];
            int[] carried = new int[NodeBuffer.FLAGS];
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                if (ops.get(i) instanceof Op.Publish f) {
                    raises.put(raiseKey(r, f.flag(), ++raised[f.flag()]), i);
                    if (f.length() > 0 && carried[f.flag()]++ > 0) {
                        c.add(Rule.NODE_RACE, r, i, "raises node flag " + f.flag() + " with a payload a second time in"
                                + " the call: it would overwrite bytes node-mates may still read (one payload per flag"
                                + " per call)");
                    }
                }
            }
        }
        for (int r = 0; r < programs.size(); r++) {
            List<Op> ops = programs.get(r).ops();
            for (int i = 0; i < ops.size(); i++) {
                if (ops.get(i) instanceof Op.AwaitFlag a) {
                    Integer publish = raises.get(raiseKey(a.peer(), a.flag(), a.count()));
                    if (publish == null) {
                        c.add(Rule.MATCHING, r, i, "awaits raise " + a.count() + " of rank " + a.peer() + "'s node flag "
                                + a.flag() + ", which that rank never makes");
                    } else {
                        matching.linkAwait(r, i, a.peer(), publish);
                        long carried = ((Op.Publish) programs.get(a.peer()).ops().get(publish)).length();
                        if (a.length() > 0 && carried != a.length()) {
                            c.add(Rule.MATCHING, r, i, "reads " + a.length() + " payload bytes of raise " + a.count()
                                    + " of rank " + a.peer() + "'s node flag " + a.flag() + ", which carries "
                                    + carried + ": an await reads the payload of the raise that carried it");
                        }
                    }
                }
            }
        }
    }

    /**
     * Links every rank's k-th Multicast to the root's k-th (decision 0146): every rank has as many, and the k-th of
     * each names the same root and length; a receiver's data is what the root's op sends.
     */
    private static void matchMulticasts(List<RankProgram> programs, SymbolicExecution.Matching matching, Collector c) {
        List<List<Integer>> indices = new java.util.ArrayList<>();
        for (RankProgram program : programs) {
            List<Op> ops = program.ops();
            indices.add(java.util.stream.IntStream.range(0, ops.size()).filter(i -> ops.get(i) instanceof Op.Multicast)
                    .boxed().toList());
        }
        int count = indices.getFirst().size();
        for (int r = 1; r < programs.size(); r++) {
            if (indices.get(r).size() != count) {
                c.add(Rule.MATCHING, r, -1, "has " + indices.get(r).size() + " Multicast ops but rank 0 has " + count
                        + ": every rank takes part in every multicast");
                return;
            }
        }
        for (int k = 0; k < count; k++) {
            Op.Multicast first = (Op.Multicast) programs.getFirst().ops().get(indices.getFirst().get(k));
            int root = first.root();
            if (root >= programs.size()) {
                return;
            }
            int rootOp = indices.get(root).get(k);
            Op.Multicast sent = (Op.Multicast) programs.get(root).ops().get(rootOp);
            for (int r = 0; r < programs.size(); r++) {
                int i = indices.get(r).get(k);
                Op.Multicast m = (Op.Multicast) programs.get(r).ops().get(i);
                if (m.root() != root) {
                    c.add(Rule.MATCHING, r, i, "Multicast " + k + " names root " + m.root() + " but rank 0's names "
                            + root);
                } else if (m.length() != sent.length()) {
                    c.add(Rule.MATCHING, r, i, "Multicast " + k + " from rank " + root + " expects " + m.length()
                            + " bytes but the root sends " + sent.length() + " (its op " + rootOp + ")");
                } else if (r != root) {
                    matching.linkAwait(r, i, root, rootOp);
                }
            }
        }
    }

    private static long raiseKey(int rank, int flag, int count) {
        return ((long) rank << 40) | ((long) flag << 32) | count;
    }

    private static void checkResult(Shape shape, SymbolicExecution execution, Collector c) {
        int n = shape.size();
        for (int r = 0; r < n; r++) {
            long size = shape.recvBytes(r);
            if (size == 0) {
                continue;
            }
            long pos = 0;
            for (SymbolicBuffer.Piece piece : execution.buffer(r, Buffer.RECV).read(0, size)) {
                String wrong = firstMismatch(shape, r, pos, piece);
                if (wrong != null) {
                    c.add(Rule.RESULT, r, -1, wrong);
                    break;
                }
                pos += piece.length();
            }
        }
    }

    /** Null when {@code piece}, at RECV offset {@code pos} of {@code rank}, holds exactly the expected bytes. */
    private static String firstMismatch(Shape shape, int rank, long pos, SymbolicBuffer.Piece piece) {
        long b = shape.blockBytes();
        long done = 0;
        while (done < piece.length()) {
            long at = pos + done;
            int expectedRank;
            Buffer expectedBuffer;
            long expectedOffset;
            long span;
            switch (shape.collective()) {
                case BROADCAST -> {
                    expectedRank = shape.root();
                    expectedBuffer = Buffer.RECV;
                    expectedOffset = at;
                    span = piece.length() - done;
                }
                case GATHER, ALLGATHER -> {
                    expectedRank = (int) (at / b);
                    expectedBuffer = Buffer.SEND;
                    expectedOffset = at % b;
                    span = Math.min(piece.length() - done, b - at % b);
                }
                case ALLTOALL -> {
                    expectedRank = (int) (at / b);
                    expectedBuffer = Buffer.SEND;
                    expectedOffset = rank * b + at % b;
                    span = Math.min(piece.length() - done, b - at % b);
                }
                case SCATTER -> {
                    expectedRank = shape.root();
                    expectedBuffer = Buffer.SEND;
                    expectedOffset = rank * b + at;
                    span = piece.length() - done;
                }
                case GATHERV, ALLGATHERV -> {
                    BlockCounts counts = shape.counts();
                    expectedRank = blockAt(counts, at);
                    expectedBuffer = Buffer.SEND;
                    expectedOffset = at - counts.offset(expectedRank);
                    span = Math.min(piece.length() - done, counts.of(expectedRank) - expectedOffset);
                }
                case SCATTERV -> {
                    expectedRank = shape.root();
                    expectedBuffer = Buffer.SEND;
                    expectedOffset = shape.counts().offset(rank) + at;
                    span = piece.length() - done;
                }
                case ALLTOALLV -> {
                    BlockCounts counts = shape.counts();
                    expectedRank = columnBlockAt(counts, rank, at);
                    expectedBuffer = Buffer.SEND;
                    long within = at - counts.recvOffset(expectedRank, rank);
                    expectedOffset = counts.sendOffset(expectedRank, rank) + within;
                    span = Math.min(piece.length() - done, counts.of(expectedRank, rank) - within);
                }
                default -> throw new IllegalStateException("no RECV contents for " + shape.collective());
            }
            SymbolicBuffer.Piece actual = piece.suffix(done).prefix(span);
            if (!actual.plain() || actual.originRank() != expectedRank || actual.originBuffer() != expectedBuffer
                    || actual.originOffset() != expectedOffset) {
                return "RECV[" + at + "," + (at + span) + ") holds " + actual.describe() + ", expected rank "
                        + expectedRank + " " + expectedBuffer + "[" + expectedOffset + "," + (expectedOffset + span) + ")";
            }
            done += span;
        }
        return null;
    }

    /** The rank whose block holds byte {@code at} of the packed blocks (a non-empty one). */
    private static int blockAt(BlockCounts counts, long at) {
        int lo = 0;
        int hi = counts.ranks() - 1;
        while (lo < hi) { // the last rank whose block starts at or before {@code at}, skipping empty blocks
            int mid = (lo + hi + 1) >>> 1;
            if (counts.offset(mid) <= at) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        while (counts.of(lo) == 0 || counts.offset(lo) > at) {
            lo--;
        }
        return lo;
    }

    /** The rank whose block holds byte {@code at} of {@code rank}'s RECV in an all-to-allv. */
    private static int columnBlockAt(BlockCounts counts, int rank, long at) {
        for (int i = counts.ranks() - 1; i >= 0; i--) {
            if (counts.of(i, rank) > 0 && counts.recvOffset(i, rank) <= at) {
                return i;
            }
        }
        throw new IllegalStateException("no block holds byte " + at);
    }

    private static void checkReductionResult(Shape shape, ReductionResult expected, SymbolicExecution execution,
                                             Collector c) {
        int n = shape.size();
        for (int r = 0; r < n; r++) {
            if (!expected.holdsResult(r)) {
                continue;
            }
            long pos = 0;
            for (SymbolicBuffer.Piece piece : execution.buffer(r, Buffer.RECV).read(0, expected.lengthBytes(r))) {
                String wrong = wrongCombination(expected.contributorsEnd(r, n), expected.rankOrder(),
                        expected.sendOffset(r) + pos, piece);
                if (wrong != null) {
                    c.add(Rule.RESULT, r, -1, "RECV[" + pos + "," + (pos + piece.length()) + ") holds "
                            + piece.describe() + ": " + wrong);
                    break;
                }
                pos += piece.length();
            }
        }
    }

    /** Null when {@code piece} combines SEND[pos..] of ranks 0..n-1 once each (in order). */
    private static String wrongCombination(int n, boolean rankOrder, long pos, SymbolicBuffer.Piece piece) {
        if (!piece.defined()) {
            return "no data, expected the combination of every rank's SEND[" + pos + "," + (pos + piece.length()) + ")";
        }
        boolean[] seen = new boolean[n];
        int previous = -1;
        for (SymbolicBuffer.Origin term : piece.terms()) {
            if (term.buffer() != Buffer.SEND || term.offset() != pos) {
                return "a term is " + term.describe(piece.length()) + ", expected SEND[" + pos + ","
                        + (pos + piece.length()) + ") of a rank";
            }
            if (term.rank() >= n) {
                return "rank " + term.rank() + "'s contribution does not belong here (ranks 0.." + (n - 1) + " do)";
            }
            if (seen[term.rank()]) {
                return "rank " + term.rank() + "'s contribution appears twice";
            }
            seen[term.rank()] = true;
            if (rankOrder && term.rank() < previous) {
                return "rank " + term.rank() + " is combined after rank " + previous
                        + ", but a non-commutative operator needs rank order";
            }
            previous = term.rank();
        }
        for (int q = 0; q < n; q++) {
            if (!seen[q]) {
                return "rank " + q + "'s contribution is missing";
            }
        }
        return null;
    }

    private static void checkBarrier(Shape shape, List<RankProgram> programs, SymbolicExecution execution, Collector c) {
        if (shape.collective() != Collective.BARRIER || shape.size() == 1) {
            return;
        }
        int n = shape.size();
        for (int q = 0; q < n; q++) {
            if (programs.get(q).ops().isEmpty()) {
                c.add(Rule.BARRIER, q, -1, "has an empty program, so no rank can learn that it entered the barrier");
                return;
            }
        }
        for (int r = 0; r < n; r++) {
            int last = programs.get(r).ops().size() - 1;
            for (int q = 0; q < n; q++) {
                if (q != r && execution.knownOps(r, last, q) == 0) {
                    c.add(Rule.BARRIER, r, last, "can leave the barrier before rank " + q
                            + " has entered it: no chain of puts leads from rank " + q + "'s first op to this rank's last");
                    break;
                }
            }
        }
    }

    /** Keeps the first {@link #MAX_REPORTED} violations and counts all. */
    private static final class Collector implements SymbolicExecution.ViolationSink {
        final List<Violation> kept = new ArrayList<>();
        int count;

        @Override
        public void add(Rule rule, int rank, int opIndex, String message) {
            count++;
            if (kept.size() < MAX_REPORTED) {
                kept.add(new Violation(rule, rank, opIndex, message));
            }
        }
    }
}
