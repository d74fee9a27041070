package io.railcoll.sim;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.Arrays;

/**
 * Runs a schedule against a {@link CostModel}, event by event, and predicts how long the collective takes.
 *
 * <p>What each op costs, for a message of m bytes on link class c ({@code alpha, beta, f} = c's startup time,
 * time per byte and processor share):
 * <ol>
 *   <li><b>Put</b>: waits for one of the rank's k send ports (a port stays busy until the message has left), then
 *       the sender's thread spends {@code f/2 (alpha + m beta)} on a core;</li>
 *   <li><b>wire</b>: then the message takes one of the receiver's k receive ports and its link for
 *       {@code (1-f)(alpha + m beta)}. A rail message holds a rail out of the sending node and a rail into the
 *       receiving node (each node has k, the node's ranks share them) for its {@code (1-f) m beta} of bandwidth;
 *       above the stripe threshold it is split evenly into k pieces, one per rail, as the engine does. The rails of
 *       a node are treated as a pool: a message may leave on one and arrive on another, as if the rails met in one
 *       switch. With a {@link RailLimit} each rail also has a token bucket in each direction, and a message is not
 *       through before both of its buckets have let its last byte pass. A shared-memory message holds one of its
 *       node's shared-memory streams;</li>
 *   <li><b>landing</b>: the receiver's thread spends {@code f/2 (alpha + m beta)} on a core; the matching Recv
 *       completes then;</li>
 *   <li><b>Copy</b>: the rank's thread spends {@code m * copyNsPerByte} on a core;</li>
 *   <li><b>Reduce</b>: the same, plus {@code m * reduceNsPerByte} for combining (the model's gamma).</li>
 *   <li><b>NodeWrite, NodeRead</b>: a copy of m bytes into or out of the node buffer, priced as a Copy;</li>
 *   <li><b>PeerRead, PeerWrite</b>: one copy of m bytes straight between two ranks' buffers, priced as a Copy
 *       plus one shared-memory startup (the system call), with no node-buffer round trip (decision 0143);</li>
 *   <li><b>Publish</b>: free; <b>AwaitFlag</b>: done one shared-memory startup ({@code alpha} of the
 *       shared-memory class, a cache line crossing the node) after the matching Publish ran. A raise that carries
 *       bytes in the flag's line, and the await that reads them, cost the same: the bytes cross in the flag's own
 *       line (decision 0202), with no node-buffer copy.</li>
 *   <li><b>Multicast</b>: the root's takes {@link MulticastTime#ns} (paper 003's model); every other rank's is
 *       done when the root's is (decision 0146).</li>
 * </ol>
 * Every shared resource (ports, rails, streams, threads, cores) serves requests first come, first served, in
 * simulated time. With f = 0, no copy cost, no stream limit and one rank per node this is exactly the k-port
 * Hockney model of {@link io.railcoll.schedule.CostTerms} (up to the order in which equal times are served).
 *
 * <p>Scale: small jobs run every rank. Larger ones run only node 0 when the schedule is node-symmetric (see
 * {@link Representatives}), which makes 1024 nodes x 64 ranks cost what one node's programs cost. A job that is
 * neither small nor symmetric runs every rank if its ops fit the budget, and otherwise fails with
 * {@link SimulationTooLargeException}. Stateless; each call builds its own state, so it is thread-safe.
 */
public final class Simulator {

    /** Which ranks to run. */
    public enum Mode {
        /** Every rank up to {@link #FULL_UP_TO} ranks, node-symmetric beyond when the schedule allows. */
        AUTO,
        FULL,
        NODE_SYMMETRIC
    }

    /** Jobs up to this many ranks are simulated whole in {@link Mode#AUTO}: exact, and cheap at this size. */
    public static final int FULL_UP_TO = 256;

    /** Default budget: simulated ops (puts, receives, copies) a simulation may hold. */
    public static final long DEFAULT_MAX_OPS = 40_000_000L;

    private Simulator() {
    }

    public static Prediction predict(Algorithm algorithm, Shape shape, CostModel model) {
        return predict(algorithm, shape, model, Mode.AUTO, DEFAULT_MAX_OPS);
    }

    /**
     * The predicted time of {@code algorithm} on {@code shape}.
     *
     * @throws IllegalArgumentException    if the algorithm cannot run the shape, saying why
     * @throws SimulationTooLargeException if the ops to simulate exceed {@code maxOps}
     * @throws IllegalStateException       if the programs do not match up (a put nobody receives, or a deadlock)
     */
    public static Prediction predict(Algorithm algorithm, Shape shape, CostModel model, Mode mode, long maxOps) {
        algorithm.unsupportedReason(shape).ifPresent(reason -> {
            throw new IllegalArgumentException(algorithm.id() + " cannot run " + shape.placement().describe() + ": "
                    + reason);
        });
        Representatives reps = representatives(algorithm, shape, mode);
        return new Run(algorithm, shape, model, reps, maxOps).simulate();
    }

    private static Representatives representatives(Algorithm algorithm, Shape shape, Mode mode) {
        if (mode == Mode.FULL || (mode == Mode.AUTO && shape.size() <= FULL_UP_TO)) {
            return Representatives.all(shape.placement());
        }
        StringBuilder whyNot = new StringBuilder();
        Representatives symmetric = Representatives.nodeSymmetric(algorithm, shape, whyNot);
        if (symmetric != null) {
            return symmetric;
        }
        if (mode == Mode.NODE_SYMMETRIC) {
            throw new IllegalArgumentException(algorithm.id() + " on " + shape.placement().describe()
                    + " is not node-symmetric: " + whyNot);
        }
        return Representatives.all(shape.placement()).because(whyNot.toString());
    }

    /** One simulation's state. Times are in ns, as doubles. */
    private static final class Run {
        private static final byte PUT = 0;
        private static final byte RECV = 1;
        private static final byte COPY = 2;
        private static final byte REDUCE = 3;
        private static final byte PUBLISH = 4;
        private static final byte AWAIT = 5;
        /** An AWAIT whose flag was found raised and whose crossing time is scheduled. */
        private static final byte AWAIT_SEEN = 6;
        /** A Multicast on its root: sends for {@link MulticastTime#ns}; on the others, waits for that to end. */
        private static final byte MCAST_SEND = 7;
        private static final byte MCAST_RECV = 8;
        /** A single-copy step: one copy of its bytes by the kernel, plus a system call's startup (decision 0143). */
        private static final byte PEER = 9;
        private static final long STEP = 0;
        private static final long WIRE = 1;
        private static final long LANDING = 2;

        private final Shape shape;
        private final Placement placement;
        private final CostModel model;
        private final Representatives reps;
        private final int ports;
        private final EventQueue queue = new EventQueue();

        // Programs of the representatives, flattened: ops of rep i are [opStart[i], opStart[i+1]).
        private final int[] opStart;
        private byte[] opKind = new byte[1024];
        private long[] opArg = new long[1024];
        private int opCount;

        // Messages: one per simulated put.
        private int[] msgSender = new int[1024];
        private int[] msgReceiver = new int[1024];
        private long[] msgBytes = new long[1024];
        private int messages;
        private int[] msgPort;
        private double[] landed;

        // Per representative.
        private final int[] pc;
        private final int[] blockedOn;
        private final boolean[] waitingForPort;
        private final double[] threadFree;
        private final double[] sendPortFree;
        private final double[] recvPortFree;
        private final double[] finished;
        /** Per op, when a PUBLISH ran (NaN before); an AWAIT's arg is its PUBLISH's op index. */
        private double[] published;

        // Per node whose resources are simulated (node 0 only when node-symmetric).
        private final double[] railOutFree;
        private final double[] railInFree;
        /** Token buckets per rail and direction (theoretical arrival times, see {@link RailLimit#pass}), or null. */
        private final RailLimit railLimit;
        private final double[] railOutTat;
        private final double[] railInTat;
        private final double[] shmStreamFree;
        private final int streams;
        private final double[][] coreFree;
        private final double coreSpeed;

        Run(Algorithm algorithm, Shape shape, CostModel model, Representatives reps, long maxOps) {
            this.shape = shape;
            this.placement = shape.placement();
            this.model = model;
            this.reps = reps;
            this.ports = shape.ports();
            int count = reps.count();
            opStart = new int[count + 1];
            build(algorithm, maxOps);
            pc = new int[count];
            blockedOn = new int[count];
            Arrays.fill(blockedOn, -1);
            waitingForPort = new boolean[count];
            threadFree = new double[count];
            sendPortFree = new double[count * ports];
            recvPortFree = new double[count * ports];
            finished = new double[count];
            Arrays.fill(finished, Double.NaN);
            published = new double[opCount];
            Arrays.fill(published, Double.NaN);
            msgPort = new int[messages];
            landed = new double[messages];
            Arrays.fill(landed, Double.NaN);
            int resourceNodes = reps.symmetric() ? 1 : placement.nodeCount();
            railOutFree = new double[resourceNodes * ports];
            railInFree = new double[resourceNodes * ports];
            railLimit = model.railLimit();
            railOutTat = railLimit == null ? null : new double[resourceNodes * ports];
            railInTat = railLimit == null ? null : new double[resourceNodes * ports];
            streams = model.shmStreamsPerNode();
            shmStreamFree = new double[resourceNodes * Math.max(1, streams)];
            double cores = model.cpuCores();
            if (cores > 0 && model.cpuScope() == CpuScope.HOST) {
                // One pool for the job; when only node 0 runs, it gets its even share of the host.
                double share = reps.symmetric() ? cores / placement.nodeCount() : cores;
                int servers = Math.max(1, (int) Math.floor(share));
                coreFree = new double[][] {new double[servers]};
                coreSpeed = share / servers;
            } else if (cores > 0) {
                int servers = Math.max(1, (int) Math.floor(cores));
                coreFree = new double[resourceNodes][servers];
                coreSpeed = cores / servers;
            } else {
                coreFree = null;
                coreSpeed = 1;
            }
        }

        private void build(Algorithm algorithm, long maxOps) {
            MessageIndex index = new MessageIndex();
            int[] recvPeer = new int[1024];
            int[] recvTag = new int[1024];
            int receives = 0;
            java.util.Map<Long, Integer> publishes = new java.util.HashMap<>();
            java.util.List<long[]> awaits = new java.util.ArrayList<>();
            // Per rank, the global op index of its k-th Multicast; receivers are linked to the root's after building.
            java.util.List<java.util.List<Integer>> multicasts = new java.util.ArrayList<>();
            long total = 0;
            int count = reps.count();
            if (count > 2) {
                // Project from the first and last rank before building them all: a budget overrun is then refused
                // in milliseconds, not after minutes of building.
                long projected = (long) Math.max(algorithm.program(shape, 0).ops().size(),
                        algorithm.program(shape, count - 1).ops().size()) * count;
                if (projected > maxOps) {
                    throw tooLarge(algorithm, maxOps, "about " + projected);
                }
            }
            for (int rep = 0; rep < count; rep++) {
                RankProgram program = algorithm.program(shape, rep);
                total += program.ops().size();
                if (total > maxOps) {
                    throw tooLarge(algorithm, maxOps, "more than " + maxOps);
                }
                opStart[rep] = opCount;
                int[] raised = new int[io.railcoll.schedule.NodeBuffer.FLAGS];
                multicasts.add(new java.util.ArrayList<>());
                for (Op op : program.ops()) {
                    switch (op) {
                        case Op.Put p -> {
                            if (messages == msgSender.length) {
                                msgSender = Arrays.copyOf(msgSender, messages * 2);
                                msgReceiver = Arrays.copyOf(msgReceiver, messages * 2);
                                msgBytes = Arrays.copyOf(msgBytes, messages * 2);
                            }
                            msgSender[messages] = rep;
                            msgReceiver[messages] = p.peer();
                            msgBytes[messages] = p.length();
                            if (!index.put(rep, p.peer(), p.tag(), messages)) {
                                throw new IllegalStateException("rank " + rep + " puts twice to rank " + p.peer()
                                        + " with tag " + p.tag());
                            }
                            addOp(PUT, messages++);
                        }
                        case Op.Recv v -> {
                            if (receives == recvPeer.length) {
                                recvPeer = Arrays.copyOf(recvPeer, receives * 2);
                                recvTag = Arrays.copyOf(recvTag, receives * 2);
                            }
                            recvPeer[receives] = v.peer();
                            recvTag[receives] = v.tag();
                            addOp(RECV, receives++);
                        }
                        case Op.Copy c -> addOp(COPY, c.length());
                        case Op.Reduce x -> addOp(REDUCE, x.length());
                        case Op.NodeWrite w -> addOp(COPY, w.length());
                        case Op.NodeRead w -> addOp(COPY, w.length());
                        case Op.PeerRead x -> addOp(PEER, x.length());
                        case Op.PeerWrite x -> addOp(PEER, x.length());
                        case Op.Publish f -> {
                            publishes.put(flagKey(rep, f.flag(), ++raised[f.flag()]), opCount);
                            addOp(PUBLISH, 0);
                        }
                        case Op.AwaitFlag a -> {
                            awaits.add(new long[] {opCount, rep, a.peer(), a.flag(), a.count()});
                            addOp(AWAIT, -1);
                        }
                        case Op.Multicast m -> {
                            multicasts.get(rep).add(opCount);
                            if (m.root() == rep) {
                                addOp(MCAST_SEND, m.length());
                            } else {
                                addOp(MCAST_RECV, m.root());
                            }
                        }
                    }
                }
            }
            opStart[reps.count()] = opCount;
            for (long[] a : awaits) {
                int peer = reps.representative((int) a[2]);
                Integer pub = publishes.get(flagKey(peer, (int) a[3], (int) a[4]));
                if (pub == null) {
                    throw new IllegalStateException("rank " + a[1] + " awaits raise " + a[4] + " of rank " + a[2]
                            + "'s node flag " + a[3] + ", which is never made");
                }
                opArg[(int) a[0]] = pub;
            }
            for (int rep = 0; rep < count; rep++) {
                java.util.List<Integer> mine = multicasts.get(rep);
                for (int k = 0; k < mine.size(); k++) {
                    int i = mine.get(k);
                    if (opKind[i] == MCAST_RECV) {
                        int root = (int) opArg[i];
                        if (root >= count || multicasts.get(root).size() <= k) {
                            throw new IllegalStateException("rank " + rep + "'s Multicast " + k + " from rank " + root
                                    + " is never sent (every rank is simulated where a program multicasts)");
                        }
                        opArg[i] = multicasts.get(root).get(k);
                    }
                }
            }
            // Each receive waits for the put whose image lands on this representative (see Representatives).
            int[] matched = new int[messages];
            for (int rep = 0; rep < reps.count(); rep++) {
                for (int i = opStart[rep]; i < opStart[rep + 1]; i++) {
                    if (opKind[i] != RECV) {
                        continue;
                    }
                    int r = (int) opArg[i];
                    int peer = recvPeer[r];
                    int offset = reps.offset(peer);
                    int message = index.get(reps.representative(peer), reps.shiftBack(rep, offset), recvTag[r]);
                    if (message < 0) {
                        throw new IllegalStateException("rank " + rep + " waits for a put from rank " + peer + " with tag "
                                + recvTag[r] + " that is never made");
                    }
                    matched[message]++;
                    opArg[i] = message;
                }
            }
            for (int m = 0; m < messages; m++) {
                if (matched[m] != 1) {
                    throw new IllegalStateException("rank " + msgSender[m] + "'s put to rank " + msgReceiver[m] + " is received "
                            + matched[m] + " times");
                }
            }
        }

        private static long flagKey(int rep, int flag, int count) {
            return ((long) rep << 40) | ((long) flag << 32) | count;
        }

        private SimulationTooLargeException tooLarge(Algorithm algorithm, long maxOps, String ops) {
            return new SimulationTooLargeException(algorithm.id() + " on " + placement.describe() + " needs " + ops
                    + " simulated ops, over the budget of " + maxOps + " (" + reps.describe() + ")");
        }

        private void addOp(byte kind, long arg) {
            if (opCount == opKind.length) {
                opKind = Arrays.copyOf(opKind, opCount * 2);
                opArg = Arrays.copyOf(opArg, opCount * 2);
            }
            opKind[opCount] = kind;
            opArg[opCount++] = arg;
        }

        Prediction simulate() {
            for (int rep = 0; rep < reps.count(); rep++) {
                pc[rep] = opStart[rep];
                queue.add(0, event(STEP, rep));
            }
            while (!queue.isEmpty()) {
                double t = queue.headTime();
                long e = queue.poll();
                int id = (int) e;
                switch ((int) (e >>> 32)) {
                    case (int) STEP -> step(id, t);
                    case (int) WIRE -> wire(id, t);
                    default -> landing(id, t);
                }
            }
            double end = 0;
            StringBuilder stuck = new StringBuilder();
            for (int rep = 0; rep < reps.count(); rep++) {
                if (Double.isNaN(finished[rep])) {
                    if (stuck.length() < 200) {
                        stuck.append(stuck.isEmpty() ? "" : "; ").append("rank ").append(rep).append(" at op ")
                                .append(pc[rep] - opStart[rep]);
                    }
                } else {
                    end = Math.max(end, finished[rep]);
                }
            }
            if (!stuck.isEmpty()) {
                throw new IllegalStateException("the programs deadlock (" + stuck + ")");
            }
            return new Prediction(end, reps.count(), placement.size(), messages);
        }

        private static long event(long kind, int id) {
            return (kind << 32) | id;
        }

        /** Runs representative {@code rep}'s program from time t until it must wait. */
        private void step(int rep, double t) {
            int end = opStart[rep + 1];
            while (pc[rep] < end) {
                int i = pc[rep];
                switch (opKind[i]) {
                    case COPY, REDUCE, PEER -> {
                        double perByte = opKind[i] == REDUCE ? model.copyNsPerByte() + model.reduceNsPerByte()
                                : model.copyNsPerByte();
                        double startup = opKind[i] == PEER ? model.link(LinkClass.SHARED_MEMORY).messageNs(0) : 0;
                        double done = compute(rep, t, startup + opArg[i] * perByte);
                        pc[rep]++;
                        if (done > t) {
                            queue.add(done, event(STEP, rep));
                            return;
                        }
                    }
                    case PUBLISH -> {
                        published[i] = t;
                        pc[rep]++;
                        double seen = t + model.link(LinkClass.SHARED_MEMORY).messageNs(0);
                        for (int other = 0; other < reps.count(); other++) {
                            if (blockedOn[other] == -2 - i) {
                                blockedOn[other] = -1;
                                queue.add(seen, event(STEP, other));
                            }
                        }
                    }
                    case AWAIT -> {
                        int pub = (int) opArg[i];
                        if (Double.isNaN(published[pub])) {
                            blockedOn[rep] = -2 - pub;
                            return;
                        }
                        double seen = published[pub] + model.link(LinkClass.SHARED_MEMORY).messageNs(0);
                        if (seen > t) {
                            queue.add(seen, event(STEP, rep));
                            // Once: the flag is seen then, not looked for again.
                            opKind[i] = AWAIT_SEEN;
                            return;
                        }
                        pc[rep]++;
                    }
                    case AWAIT_SEEN -> pc[rep]++;
                    case MCAST_SEND -> {
                        double done = t + MulticastTime.ns(opArg[i], placement.size(), model);
                        published[i] = done;
                        pc[rep]++;
                        for (int other = 0; other < reps.count(); other++) {
                            if (blockedOn[other] == -2 - i) {
                                blockedOn[other] = -1;
                                queue.add(done, event(STEP, other));
                            }
                        }
                        queue.add(done, event(STEP, rep));
                        return;
                    }
                    case MCAST_RECV -> {
                        int send = (int) opArg[i];
                        if (Double.isNaN(published[send])) {
                            blockedOn[rep] = -2 - send;
                            return;
                        }
                        if (published[send] > t) {
                            queue.add(published[send], event(STEP, rep));
                            return;
                        }
                        pc[rep]++;
                    }
                    case PUT -> {
                        int port = freestPort(sendPortFree, rep);
                        double free = sendPortFree[rep * ports + port];
                        if (free > t) {
                            if (free == Double.POSITIVE_INFINITY) {
                                waitingForPort[rep] = true;
                            } else {
                                queue.add(free, event(STEP, rep));
                            }
                            return;
                        }
                        int m = (int) opArg[i];
                        sendPortFree[rep * ports + port] = Double.POSITIVE_INFINITY;
                        msgPort[m] = port;
                        double done = compute(rep, t, cpuHalf(m));
                        queue.add(done, event(WIRE, m));
                        pc[rep]++;
                        if (done > t) {
                            queue.add(done, event(STEP, rep));
                            return;
                        }
                    }
                    default -> {
                        int m = (int) opArg[i];
                        if (Double.isNaN(landed[m])) {
                            blockedOn[rep] = m;
                            return;
                        }
                        if (landed[m] > t) {
                            queue.add(landed[m], event(STEP, rep));
                            return;
                        }
                        pc[rep]++;
                    }
                }
            }
            // A program ends when its own puts have left: its ports are free again.
            double last = t;
            for (int p = 0; p < ports; p++) {
                last = Math.max(last, sendPortFree[rep * ports + p]);
            }
            if (last == Double.POSITIVE_INFINITY) {
                waitingForPort[rep] = true;
                return;
            }
            finished[rep] = last;
        }

        private LinkCost linkOf(int m) {
            int sender = msgSender[m];
            return model.link(placement.sameNode(sender, msgReceiver[m]) ? LinkClass.SHARED_MEMORY : LinkClass.RAIL);
        }

        private double cpuHalf(int m) {
            LinkCost c = linkOf(m);
            return c.cpuFraction() / 2 * c.messageNs(msgBytes[m]);
        }

        /** The message leaves the sender: receive port, then the link. */
        private void wire(int m, double t) {
            int sender = msgSender[m];
            int receiver = reps.representative(msgReceiver[m]);
            long bytes = msgBytes[m];
            boolean local = placement.sameNode(sender, msgReceiver[m]);
            LinkCost c = model.link(local ? LinkClass.SHARED_MEMORY : LinkClass.RAIL);
            double wireShare = 1 - c.cpuFraction();
            int recvPort = freestPort(recvPortFree, receiver);
            double start = Math.max(t, recvPortFree[receiver * ports + recvPort]);
            double end;
            if (local) {
                end = shmTransfer(resourceNode(sender), start, bytes, c, wireShare);
            } else {
                end = railTransfer(resourceNode(sender), resourceNode(receiver), start, bytes, c, wireShare);
            }
            recvPortFree[receiver * ports + recvPort] = end;
            sendPortFree[sender * ports + msgPort[m]] = end;
            if (waitingForPort[sender]) {
                waitingForPort[sender] = false;
                queue.add(end, event(STEP, sender));
            }
            queue.add(end, event(LANDING, m));
        }

        private double shmTransfer(int node, double start, long bytes, LinkCost c, double wireShare) {
            if (streams == 0) {
                return start + wireShare * c.messageNs(bytes);
            }
            int best = earliest(shmStreamFree, node * streams, streams);
            double begin = Math.max(start, shmStreamFree[best]);
            shmStreamFree[best] = begin + wireShare * bytes * c.nsPerByte();
            return begin + wireShare * c.messageNs(bytes);
        }

        private double railTransfer(int from, int to, double start, long bytes, LinkCost c, double wireShare) {
            if (bytes > model.stripeThresholdBytes() && ports > 1) {
                double end = start;
                for (int piece = 0; piece < ports; piece++) {
                    long pieceBytes = bytes / ports + (piece < bytes % ports ? 1 : 0);
                    end = Math.max(end, occupyRail(from, to, start, pieceBytes, c, wireShare));
                }
                return end;
            }
            return occupyRail(from, to, start, bytes, c, wireShare);
        }

        /**
         * Holds the earliest free rail out of {@code from} and the earliest free rail into {@code to} (with token
         * buckets, see {@link #readiest}), and returns when the message is through.
         */
        private double occupyRail(int from, int to, double start, long bytes, LinkCost c, double wireShare) {
            int out = railLimit == null ? earliest(railOutFree, from * ports, ports) : readiest(railOutFree, railOutTat, from * ports);
            int in = railLimit == null ? earliest(railInFree, to * ports, ports) : readiest(railInFree, railInTat, to * ports);
            double begin = Math.max(start, Math.max(railOutFree[out], railInFree[in]));
            double busyUntil = begin + wireShare * bytes * c.nsPerByte();
            railOutFree[out] = busyUntil;
            railInFree[in] = busyUntil;
            double end = begin + wireShare * c.messageNs(bytes);
            if (railLimit != null) {
                end = Math.max(end, Math.max(railLimit.pass(railOutTat, out, begin, bytes),
                        railLimit.pass(railInTat, in, begin, bytes)));
            }
            return end;
        }

        /** The rail of a node that is soonest both free and holding a full bucket (the later of the two times). */
        private int readiest(double[] free, double[] tat, int base) {
            int best = base;
            for (int i = base + 1; i < base + ports; i++) {
                if (Math.max(free[i], tat[i]) < Math.max(free[best], tat[best])) {
                    best = i;
                }
            }
            return best;
        }

        private static int earliest(double[] free, int base, int count) {
            int best = base;
            for (int i = base + 1; i < base + count; i++) {
                if (free[i] < free[best]) {
                    best = i;
                }
            }
            return best;
        }

        /** The receiver's thread takes the message in; the Recv waiting for it may go on. */
        private void landing(int m, double t) {
            int receiver = reps.representative(msgReceiver[m]);
            double done = compute(receiver, t, cpuHalf(m));
            landed[m] = done;
            if (blockedOn[receiver] == m) {
                blockedOn[receiver] = -1;
                queue.add(done, event(STEP, receiver));
            }
        }

        /** Runs {@code work} ns of processor time on {@code rep}'s thread and a core; returns when it is done. */
        private double compute(int rep, double t, double work) {
            if (work <= 0) {
                return t;
            }
            double start = Math.max(t, threadFree[rep]);
            double duration = work;
            if (coreFree != null) {
                double[] cores = coreFree[coreFree.length == 1 ? 0 : resourceNode(rep)];
                int best = earliest(cores, 0, cores.length);
                start = Math.max(start, cores[best]);
                duration = work / coreSpeed;
                cores[best] = start + duration;
            }
            threadFree[rep] = start + duration;
            return start + duration;
        }

        private int resourceNode(int rep) {
            return reps.symmetric() ? 0 : placement.nodeOf(rep);
        }

        private int freestPort(double[] free, int rep) {
            return earliest(free, rep * ports, ports) - rep * ports;
        }
    }
}
