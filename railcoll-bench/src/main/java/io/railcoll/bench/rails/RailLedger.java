package io.railcoll.bench.rails;

import io.railcoll.topology.Placement;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sums the counter lines a benchmark's ranks print around each point into one {@link RailTraffic} per point. The
 * line, the same from railcoll's ranks, {@code peer_bench.c} and the MPJ Express benchmark:
 * <pre>
 * rails,&lt;label&gt;,&lt;size_bytes&gt;,&lt;rank&gt;,&lt;calls&gt;,&lt;elapsed_ns&gt;,&lt;interface&gt;,&lt;rx_bytes&gt;,&lt;tx_bytes&gt;
 * </pre>
 * one per interface per counting window, with the window's byte deltas read by that rank in its node's namespace. A
 * point measured in several windows (passes) sums them. Of each node only its first rank's lines count (every rank
 * of a node reads the same counters). Lines of other ranks, of unknown interfaces, or of other shapes are ignored.
 * Not thread-safe: fill, then read.
 */
public final class RailLedger {
    public static final String PREFIX = "rails,";

    /** A point: what ran (an algorithm label or a peer's name) at which size. */
    public record Point(String label, long sizeBytes) {
    }

    private final Placement placement;
    private final List<String> interfaces;
    private final Map<Point, long[][]> rx = new LinkedHashMap<>();
    private final Map<Point, long[][]> tx = new LinkedHashMap<>();
    /** Per point: calls and elapsed ns, counted from the node-0 leader's first-interface lines. */
    private final Map<Point, long[]> windows = new LinkedHashMap<>();

    public RailLedger(Placement placement, List<String> interfaces) {
        this.placement = placement;
        this.interfaces = List.copyOf(interfaces);
    }

    /** The line for one interface of one window. */
    public static String line(String label, long sizeBytes, int rank, long calls, long elapsedNs, String iface,
                              long rxBytes, long txBytes) {
        return String.format(Locale.ROOT, "%s%s,%d,%d,%d,%d,%s,%d,%d", PREFIX, label, sizeBytes, rank, calls, elapsedNs,
                iface, rxBytes, txBytes);
    }

    /** Takes one line; returns whether it was a counter line this ledger used. */
    public boolean accept(String line) {
        String l = line.strip();
        if (!l.startsWith(PREFIX)) {
            return false;
        }
        String[] f = l.split(",");
        if (f.length != 9) {
            return false;
        }
        try {
            Point point = new Point(f[1], Long.parseLong(f[2]));
            int rank = Integer.parseInt(f[3]);
            long calls = Long.parseLong(f[4]);
            long elapsed = Long.parseLong(f[5]);
            int rail = interfaces.indexOf(f[6]);
            long rxBytes = Long.parseLong(f[7]);
            long txBytes = Long.parseLong(f[8]);
            if (rank < 0 || rank >= placement.size() || rail < 0) {
                return false;
            }
            int node = placement.nodeOf(rank);
            if (placement.rankAt(node, 0) != rank) {
                return false;
            }
            rx.computeIfAbsent(point, k -> new long[placement.nodeCount()][interfaces.size()])[node][rail] += rxBytes;
            tx.computeIfAbsent(point, k -> new long[placement.nodeCount()][interfaces.size()])[node][rail] += txBytes;
            if (node == 0 && rail == 0) {
                long[] w = windows.computeIfAbsent(point, k -> new long[2]);
                w[0] += calls;
                w[1] += elapsed;
            }
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Every point that has node 0's window, with its traffic. */
    public Map<Point, RailTraffic> traffic() {
        Map<Point, RailTraffic> out = new LinkedHashMap<>();
        for (var e : windows.entrySet()) {
            if (e.getValue()[0] > 0) {
                out.put(e.getKey(), new RailTraffic(interfaces, rx.get(e.getKey()), tx.get(e.getKey()), e.getValue()[0],
                        e.getValue()[1]));
            }
        }
        return out;
    }
}
