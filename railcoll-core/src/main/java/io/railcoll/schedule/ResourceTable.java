package io.railcoll.schedule;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Paper 002's Table 1 ("per-node resource utilization"), computed from an algorithm's schedule for one placement:
 * per node and phase, the concurrent network connections in and out, the network data per connection, and the
 * shared-memory writes and reads. Volumes are in units of M, one block: the schedule is built with 1-byte blocks.
 *
 * <p>How the numbers come from the programs:
 * <ul>
 *   <li><b>Phases</b> are the algorithm's ({@link Phased}); a phase in which no rank sends anything is left out and
 *       the rest are numbered from 1, as the paper numbers the 4-group algorithm's two phases. An algorithm that
 *       is not {@link Phased} is one phase.</li>
 *   <li><b>Time</b> is the engine's: every put is in flight as soon as its rank issues it (one connection per
 *       peer, nothing waits for a port) and lands one step later; a rank passes a Recv when its put has landed.
 *       Puts of one node that start in the same step are concurrent; a step's puts to or from other nodes are its
 *       active connections, counted once per (sender, receiver) pair.</li>
 *   <li><b>Network</b>, in the paper's notation: {@code aM_bC} is b concurrent connections carrying aM each,
 *       {@code aM_sS} one connection per step over s consecutive steps, {@code aM_bC_sS} both; other patterns
 *       list their steps.</li>
 *   <li><b>Shared memory, paper accounting</b> ({@code aM_bW}, {@code aM_bR}: b ranks each writing or reading aM).
 *       The paper's implementation has one shared buffer per node; this reproduces its count from the schedule:
 *       in a phase, every block some rank sends to a rank of its own node is written into the buffer once by that
 *       sender, however many ranks receive it; a block of the node's own ranks that a reader needs, that nobody
 *       sends in the phase and that no earlier phase put in the buffer, is written by its owner (the master's own
 *       block in a node gather), while other nodes' blocks reach the buffer over the network at no rank's cost; every
 *       rank that receives from its node, or forwards to its node blocks that reached it over the network (the
 *       paper's network writes land in the shared buffer), reads its whole result so far (every block it holds at
 *       the end of the phase) out of the buffer.</li>
 *   <li><b>Shared memory, railcoll rings</b>: what the engine does instead, one ring per ordered pair: a put to a
 *       rank of the same node is written into that pair's ring by the sender and read out by the receiver, so a
 *       master broadcasting to L-1 ranks writes L-1 times.</li>
 * </ul>
 * Immutable once built; {@link #of} runs the programs once, symbolically.
 */
public final class ResourceTable {

    /**
     * An algorithm whose ops fall into named phases (paper 002's "Phase 1: per-node shared memory gather", ...).
     * The resource table reports each phase separately; other algorithms are one phase.
     */
    public interface Phased {
        /** The phase names in order; {@link #phaseOfOps} indexes this list. */
        List<String> phaseNames();

        /** The phase of every op of {@code program(shape, rank)}, in op order. */
        int[] phaseOfOps(Shape shape, int rank);
    }

    /** One node's use of one phase. Volumes in blocks; rank-keyed maps hold only ranks that do something. */
    public record PhaseUse(String phase, int connectionsIn, int connectionsOut, List<List<Long>> outboundSteps,
                           List<List<Long>> inboundSteps, Map<Integer, Long> sharedWrites,
                           Map<Integer, Long> sharedReads, Map<Integer, Long> ringWrites, Map<Integer, Long> ringReads) {

        /** {@code "3 In, 3 Out"}, or {@code "-"} without network traffic. */
        public String connections() {
            return connectionsIn == 0 && connectionsOut == 0 ? "-"
                    : connectionsIn + " In, " + connectionsOut + " Out";
        }

        /** Outbound network data in the paper's notation, e.g. {@code 4M_3C}. */
        public String networkOut() {
            return notation(outboundSteps);
        }

        public String networkIn() {
            return notation(inboundSteps);
        }

        /** Shared memory in the paper's accounting, e.g. {@code 1M_4W + 4M_1R}. */
        public String sharedMemory() {
            return shm(sharedWrites, sharedReads);
        }

        /** Shared memory as railcoll's per-pair rings move it. */
        public String rings() {
            return shm(ringWrites, ringReads);
        }
    }

    private final String algorithm;
    private final Shape shape;
    private final List<String> phases;
    private final List<List<PhaseUse>> byNode;

    private ResourceTable(String algorithm, Shape shape, List<String> phases, List<List<PhaseUse>> byNode) {
        this.algorithm = algorithm;
        this.shape = shape;
        this.phases = List.copyOf(phases);
        this.byNode = byNode;
    }

    /**
     * The table of {@code algorithm} on {@code placement} with {@code ports} rails and {@code groups} groups
     * (for the g-group algorithm), built from its programs with 1-byte blocks.
     *
     * @throws IllegalArgumentException if the algorithm cannot run the shape, saying why
     */
    public static ResourceTable of(Algorithm algorithm, Placement placement, int ports, int groups) {
        Shape shape = new Shape(algorithm.collective(), placement, ports, 1, 0, groups);
        algorithm.unsupportedReason(shape).ifPresent(reason -> {
            throw new IllegalArgumentException(algorithm.id() + " cannot run " + placement.describe() + ": " + reason);
        });
        if (algorithm instanceof MulticastUser) {
            // Paper 002's table counts point-to-point connections and steps; a multicast stream is neither, and
            // counting only the puts around it would show a table of another algorithm.
            throw new IllegalArgumentException(algorithm.id() + " multicasts: the resource table counts point-to-point"
                    + " connections only");
        }
        return new Builder(algorithm, shape).build();
    }

    public String algorithm() {
        return algorithm;
    }

    /** The shape the programs were built for (block size 1). */
    public Shape shape() {
        return shape;
    }

    /** The phases shown, in order (the algorithm's phases with some traffic). */
    public List<String> phases() {
        return phases;
    }

    /** {@code node}'s use of every shown phase, in order. */
    public List<PhaseUse> node(int node) {
        return byNode.get(node);
    }

    /** The most concurrent network connections into and out of {@code node} in any phase, e.g. {@code 3 In, 3 Out}. */
    public String connections(int node) {
        int in = 0;
        int out = 0;
        for (PhaseUse use : byNode.get(node)) {
            in = Math.max(in, use.connectionsIn());
            out = Math.max(out, use.connectionsOut());
        }
        return in == 0 && out == 0 ? "-" : in + " In, " + out + " Out";
    }

    /** The outbound network data of every phase that has some, in phase order, e.g. {@code 4M_3C}. */
    public String network(int node) {
        List<String> parts = new ArrayList<>();
        for (PhaseUse use : byNode.get(node)) {
            if (!use.outboundSteps().isEmpty()) {
                parts.add(use.networkOut());
            }
        }
        return parts.isEmpty() ? "-" : String.join("; ", parts);
    }

    /**
     * The table per node, nodes with identical rows shown once:
     * <pre>
     *   allgather.mc-2group on 4x4 (k=1, g=2); volumes in M = one block
     *   nodes 0-3
     *     phase                   connections  net out  net in  shm (paper)      shm (rings)
     *     1 group gather (shm)    -            -        -       1M_4W + 2M_2R    1M_2W + 1M_2R
     * </pre>
     */
    public String format() {
        StringBuilder sb = new StringBuilder(algorithm).append(" on ").append(shape.placement().describe())
                .append(" (k=").append(shape.ports()).append(", g=").append(shape.groups())
                .append("); volumes in M = one block\n");
        // Nodes with the same rows (ranks differ, notation does not) are shown once.
        Map<List<List<String>>, List<Integer>> groups = new LinkedHashMap<>();
        for (int n = 0; n < byNode.size(); n++) {
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < phases.size(); i++) {
                PhaseUse use = byNode.get(n).get(i);
                rows.add(List.of((i + 1) + " " + use.phase(), use.connections(), use.networkOut(), use.networkIn(),
                        use.sharedMemory(), use.rings()));
            }
            groups.computeIfAbsent(rows, key -> new ArrayList<>()).add(n);
        }
        for (Map.Entry<List<List<String>>, List<Integer>> e : groups.entrySet()) {
            sb.append(nodeLabel(e.getValue())).append('\n');
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"phase", "connections", "net out", "net in", "shm (paper)", "shm (rings)"});
            for (List<String> row : e.getKey()) {
                rows.add(row.toArray(String[]::new));
            }
            appendAligned(sb, rows, "  ");
        }
        return sb.toString();
    }

    /**
     * Several algorithms side by side for one node, laid out as paper 002's Table 1: a column per table, rows for
     * connections, network data and each phase's shared memory (paper accounting).
     */
    public static String compare(List<ResourceTable> tables, int node) {
        int phaseRows = 0;
        for (ResourceTable t : tables) {
            phaseRows = Math.max(phaseRows, t.phases.size());
        }
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[tables.size() + 1];
        String[] connections = new String[tables.size() + 1];
        String[] network = new String[tables.size() + 1];
        head[0] = "node " + node;
        connections[0] = "Concurrent active connections";
        network[0] = "Network - outbound data";
        for (int c = 0; c < tables.size(); c++) {
            ResourceTable t = tables.get(c);
            head[c + 1] = t.algorithm + " k=" + t.shape.ports();
            connections[c + 1] = t.connections(node);
            network[c + 1] = t.network(node);
        }
        rows.add(head);
        rows.add(connections);
        rows.add(network);
        for (int p = 0; p < phaseRows; p++) {
            String[] row = new String[tables.size() + 1];
            row[0] = "Shared memory, phase " + (p + 1);
            for (int c = 0; c < tables.size(); c++) {
                List<PhaseUse> uses = tables.get(c).node(node);
                row[c + 1] = p < uses.size() ? uses.get(p).sharedMemory() : "-";
            }
            rows.add(row);
        }
        StringBuilder sb = new StringBuilder();
        appendAligned(sb, rows, "");
        return sb.toString();
    }

    private static String nodeLabel(List<Integer> nodes) {
        boolean consecutive = nodes.getLast() - nodes.getFirst() == nodes.size() - 1;
        if (nodes.size() == 1) {
            return "node " + nodes.getFirst();
        }
        if (consecutive) {
            return "nodes " + nodes.getFirst() + "-" + nodes.getLast();
        }
        StringBuilder sb = new StringBuilder("nodes ");
        for (int i = 0; i < nodes.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(nodes.get(i));
        }
        return sb.toString();
    }

    private static void appendAligned(StringBuilder sb, List<String[]> rows, String indent) {
        int[] widths = new int[rows.getFirst().length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder(indent);
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]).append(" ".repeat(widths[i] - row[i].length())).append(i + 1 < row.length ? "  " : "");
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
    }

    /** Paper notation of a node's network steps; see the class comment. */
    static String notation(List<List<Long>> steps) {
        if (steps.isEmpty()) {
            return "-";
        }
        List<Long> first = steps.getFirst();
        boolean uniform = first.stream().distinct().count() == 1;
        for (List<Long> step : steps) {
            uniform &= step.equals(first);
        }
        if (uniform) {
            String size = first.getFirst() + "M";
            int concurrent = first.size();
            int count = steps.size();
            if (count == 1) {
                return size + "_" + concurrent + "C";
            }
            return concurrent == 1 ? size + "_" + count + "S" : size + "_" + concurrent + "C_" + count + "S";
        }
        List<String> parts = new ArrayList<>();
        for (List<Long> step : steps) {
            parts.add(counted(step, "C"));
        }
        return String.join(", ", parts);
    }

    private static String shm(Map<Integer, Long> writes, Map<Integer, Long> reads) {
        if (writes.isEmpty() && reads.isEmpty()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        if (!writes.isEmpty()) {
            parts.add(counted(List.copyOf(writes.values()), "W"));
        }
        if (!reads.isEmpty()) {
            parts.add(counted(List.copyOf(reads.values()), "R"));
        }
        return String.join(" + ", parts);
    }

    /** {@code [4, 4, 1]} with suffix W: {@code 4M_2W + 1M_1W}, largest first. */
    private static String counted(List<Long> volumes, String suffix) {
        TreeMap<Long, Integer> counts = new TreeMap<>(java.util.Comparator.reverseOrder());
        for (long v : volumes) {
            counts.merge(v, 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((volume, count) -> parts.add(volume + "M_" + count + suffix));
        return String.join(" + ", parts);
    }

    /** Runs the programs once with 1-byte blocks, recording what the table needs. */
    private static final class Builder {
        /** A block: where its byte came from, packed as (rank, buffer, offset). */
        private static final long NONE = -1;

        private record Message(int sender, int receiver, int phase, long step, long length, Set<Long> blocks,
                               boolean forwardsNetworkData) {
        }

        private final Algorithm algorithm;
        private final Shape shape;
        private final Placement placement;
        private final List<RankProgram> programs = new ArrayList<>();
        private final List<int[]> phaseOfOps = new ArrayList<>();
        private final List<String> names;
        private final long[][][] data;
        private final boolean[][][] fromNetwork;
        /** Holdings (distinct blocks in RECV and TEMP) of each rank after its last op of each phase. */
        private final List<Map<Integer, Set<Long>>> holdings = new ArrayList<>();
        private final List<Message> messages = new ArrayList<>();

        Builder(Algorithm algorithm, Shape shape) {
            this.algorithm = algorithm;
            this.shape = shape;
            this.placement = shape.placement();
            int n = shape.size();
            names = algorithm instanceof Phased p ? p.phaseNames() : List.of("all");
            data = new long[n][][];
            fromNetwork = new boolean[n][][];
            for (int r = 0; r < n; r++) {
                RankProgram program = algorithm.program(shape, r);
                if (program.ops().stream().anyMatch(op -> op instanceof Op.Reduce)) {
                    // The table counts whose blocks a node holds; a reduced byte is no rank's block.
                    throw new IllegalArgumentException(algorithm.id() + " combines data (Reduce ops): the resource "
                            + "table counts the blocks of data-moving collectives only");
                }
                programs.add(program);
                int[] phases = algorithm instanceof Phased p ? p.phaseOfOps(shape, r) : new int[program.ops().size()];
                if (phases.length != program.ops().size()) {
                    throw new IllegalStateException(algorithm.id() + " gives " + phases.length + " phases for "
                            + program.ops().size() + " ops of rank " + r);
                }
                phaseOfOps.add(phases);
                data[r] = new long[Buffer.values().length][];
                fromNetwork[r] = new boolean[Buffer.values().length][];
                for (Buffer buffer : Buffer.values()) {
                    int size = Math.toIntExact(switch (buffer) {
                        case SEND -> shape.sendBytes(r);
                        case RECV -> shape.recvBytes(r);
                        case TEMP -> program.tempBytes();
                    });
                    data[r][buffer.ordinal()] = new long[size];
                    fromNetwork[r][buffer.ordinal()] = new boolean[size];
                    for (int i = 0; i < size; i++) {
                        boolean own = buffer == Buffer.SEND
                                || buffer == Buffer.RECV && shape.collective() == Collective.BROADCAST && r == shape.root();
                        data[r][buffer.ordinal()][i] = own ? block(r, buffer, i) : NONE;
                    }
                }
                holdings.add(new HashMap<>());
            }
        }

        private static long block(int rank, Buffer buffer, long offset) {
            return ((long) rank << 40) | ((long) buffer.ordinal() << 36) | offset;
        }

        ResourceTable build() {
            run();
            List<Integer> shown = new ArrayList<>();
            for (int p = 0; p < names.size(); p++) {
                final int phase = p;
                if (messages.stream().anyMatch(m -> m.phase() == phase)) {
                    shown.add(p);
                }
            }
            List<List<PhaseUse>> byNode = new ArrayList<>();
            for (int node = 0; node < placement.nodeCount(); node++) {
                Set<Long> earlierRegions = new HashSet<>();
                List<PhaseUse> uses = new ArrayList<>();
                for (int p : shown) {
                    uses.add(phaseUse(node, p, earlierRegions));
                }
                byNode.add(List.copyOf(uses));
            }
            List<String> shownNames = new ArrayList<>();
            for (int p : shown) {
                shownNames.add(names.get(p));
            }
            return new ResourceTable(algorithm.id(), shape, shownNames, byNode);
        }

        /** Runs every rank until it waits for a put not yet issued, over and over, as the checker does. */
        private void run() {
            int n = shape.size();
            int[] next = new int[n];
            long[] clock = new long[n];
            Map<List<Integer>, Message> issued = new HashMap<>();
            Map<List<Integer>, long[]> payload = new HashMap<>();
            Map<List<Integer>, boolean[]> payloadFlags = new HashMap<>();
            int[][] lastOfPhase = new int[n][names.size()];
            for (int r = 0; r < n; r++) {
                java.util.Arrays.fill(lastOfPhase[r], -1);
                int[] phases = phaseOfOps.get(r);
                for (int i = 0; i < phases.length; i++) {
                    lastOfPhase[r][phases[i]] = i;
                }
            }
            boolean progress = true;
            while (progress) {
                progress = false;
                for (int r = 0; r < n; r++) {
                    List<Op> ops = programs.get(r).ops();
                    while (next[r] < ops.size()) {
                        int i = next[r];
                        Op op = ops.get(i);
                        int phase = phaseOfOps.get(r)[i];
                        if (op instanceof Op.Put put) {
                            long[] bytes = slice(data[r][put.src().ordinal()], put.srcOffset(), put.length());
                            boolean[] flags = slice(fromNetwork[r][put.src().ordinal()], put.srcOffset(), put.length());
                            List<Integer> key = List.of(r, put.peer(), put.tag());
                            Set<Long> blocks = new HashSet<>();
                            boolean network = false;
                            for (int j = 0; j < bytes.length; j++) {
                                blocks.add(bytes[j]);
                                network |= flags[j];
                            }
                            Message m = new Message(r, put.peer(), phase, clock[r], put.length(), blocks, network);
                            messages.add(m);
                            issued.put(key, m);
                            payload.put(key, bytes);
                            payloadFlags.put(key, flags);
                        } else if (op instanceof Op.Recv recv) {
                            List<Integer> key = List.of(recv.peer(), r, recv.tag());
                            Message m = issued.get(key);
                            if (m == null) {
                                break;
                            }
                            clock[r] = Math.max(clock[r], m.step() + 1);
                            boolean network = !placement.sameNode(r, recv.peer());
                            long[] bytes = payload.get(key);
                            long[] dst = data[r][recv.dst().ordinal()];
                            boolean[] flags = fromNetwork[r][recv.dst().ordinal()];
                            for (int j = 0; j < bytes.length; j++) {
                                dst[(int) recv.dstOffset() + j] = bytes[j];
                                flags[(int) recv.dstOffset() + j] = network;
                            }
                        } else if (op instanceof Op.Copy c) {
                            long[] bytes = slice(data[r][c.src().ordinal()], c.srcOffset(), c.length());
                            boolean[] flags = slice(fromNetwork[r][c.src().ordinal()], c.srcOffset(), c.length());
                            System.arraycopy(bytes, 0, data[r][c.dst().ordinal()], (int) c.dstOffset(), bytes.length);
                            System.arraycopy(flags, 0, fromNetwork[r][c.dst().ordinal()], (int) c.dstOffset(), flags.length);
                        }
                        if (lastOfPhase[r][phase] == i) {
                            holdings.get(r).put(phase, held(r));
                        }
                        next[r]++;
                        progress = true;
                    }
                }
            }
            for (int r = 0; r < n; r++) {
                if (next[r] < programs.get(r).ops().size()) {
                    throw new IllegalStateException(algorithm.id() + " deadlocks on " + placement.describe()
                            + " (rank " + r + " at op " + next[r] + "); run the ScheduleChecker");
                }
            }
        }

        private Set<Long> held(int rank) {
            Set<Long> blocks = new HashSet<>();
            for (Buffer buffer : new Buffer[] {Buffer.RECV, Buffer.TEMP}) {
                for (long block : data[rank][buffer.ordinal()]) {
                    if (block != NONE) {
                        blocks.add(block);
                    }
                }
            }
            return blocks;
        }

        private PhaseUse phaseUse(int node, int phase, Set<Long> earlierRegions) {
            TreeMap<Long, Map<List<Integer>, Long>> out = new TreeMap<>();
            TreeMap<Long, Map<List<Integer>, Long>> in = new TreeMap<>();
            List<Message> local = new ArrayList<>();
            for (Message m : messages) {
                if (m.phase() != phase) {
                    continue;
                }
                boolean fromHere = placement.nodeOf(m.sender()) == node;
                boolean toHere = placement.nodeOf(m.receiver()) == node;
                List<Integer> pair = List.of(m.sender(), m.receiver());
                if (fromHere && toHere) {
                    local.add(m);
                } else if (fromHere) {
                    out.computeIfAbsent(m.step(), s -> new LinkedHashMap<>()).merge(pair, m.length(), Long::sum);
                } else if (toHere) {
                    in.computeIfAbsent(m.step(), s -> new LinkedHashMap<>()).merge(pair, m.length(), Long::sum);
                }
            }
            Map<Integer, Long> ringWrites = new TreeMap<>();
            Map<Integer, Long> ringReads = new TreeMap<>();
            Map<Integer, Set<Long>> sent = new TreeMap<>();
            Set<Integer> readers = new java.util.TreeSet<>();
            for (Message m : local) {
                ringWrites.merge(m.sender(), m.length(), Long::sum);
                ringReads.merge(m.receiver(), m.length(), Long::sum);
                sent.computeIfAbsent(m.sender(), s -> new HashSet<>()).addAll(m.blocks());
                readers.add(m.receiver());
                if (m.forwardsNetworkData()) {
                    readers.add(m.sender());
                }
            }
            Set<Long> sentByAnyone = new HashSet<>();
            sent.values().forEach(sentByAnyone::addAll);
            Map<Integer, Long> writes = new TreeMap<>();
            sent.forEach((rank, blocks) -> writes.put(rank, (long) blocks.size()));
            Map<Integer, Long> reads = new TreeMap<>();
            Set<Long> region = new HashSet<>(sentByAnyone);
            Set<Long> writtenByOwner = new HashSet<>();
            for (int reader : readers) {
                Set<Long> image = holdings.get(reader).getOrDefault(phase, Set.of());
                reads.put(reader, (long) image.size());
                region.addAll(image);
                for (long block : image) {
                    int owner = (int) (block >>> 40);
                    // Blocks of other nodes nobody here forwards reached the buffer over the network: no rank
                    // writes them. The node's own blocks enter it from their owner (or, failing that, a reader).
                    if (placement.nodeOf(owner) == node && !sentByAnyone.contains(block)
                            && !earlierRegions.contains(block) && writtenByOwner.add(block)) {
                        writes.merge(readers.contains(owner) ? owner : reader, 1L, Long::sum);
                    }
                }
            }
            earlierRegions.addAll(region);
            return new PhaseUse(names.get(phase), maxConnections(in), maxConnections(out), steps(out), steps(in),
                    writes, reads, ringWrites, ringReads);
        }

        private static int maxConnections(TreeMap<Long, Map<List<Integer>, Long>> steps) {
            int max = 0;
            for (Map<List<Integer>, Long> step : steps.values()) {
                max = Math.max(max, step.size());
            }
            return max;
        }

        /** Per step, the volume of each connection, largest first. */
        private static List<List<Long>> steps(TreeMap<Long, Map<List<Integer>, Long>> steps) {
            List<List<Long>> list = new ArrayList<>();
            for (Map<List<Integer>, Long> step : steps.values()) {
                List<Long> volumes = new ArrayList<>(step.values());
                volumes.sort(java.util.Comparator.reverseOrder());
                list.add(List.copyOf(volumes));
            }
            return list;
        }

        private static long[] slice(long[] array, long offset, long length) {
            return java.util.Arrays.copyOfRange(array, (int) offset, (int) (offset + length));
        }

        private static boolean[] slice(boolean[] array, long offset, long length) {
            return java.util.Arrays.copyOfRange(array, (int) offset, (int) (offset + length));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResourceTable t && t.algorithm.equals(algorithm) && t.shape.equals(shape)
                && t.byNode.equals(byNode);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, shape, byNode);
    }

    @Override
    public String toString() {
        return format();
    }
}
