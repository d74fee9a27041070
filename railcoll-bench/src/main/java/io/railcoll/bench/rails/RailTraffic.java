package io.railcoll.bench.rails;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the rails carried while one point was measured: per node and rail, the bytes the node's interface received
 * and sent, over {@code calls} collective calls that took {@code elapsedNs} in all (the counted window holds the
 * sample's untimed calls and the barriers between calls too; their bytes are small beside a large call's and are
 * not subtracted). Immutable.
 *
 * @param interfaces the rail interfaces, rail order ({@code rail0, rail1})
 * @param rxBytes    [node][rail] bytes received by that node on that rail
 * @param txBytes    [node][rail] bytes sent
 * @param calls      collective calls inside the window
 * @param elapsedNs  the window's length, summed over the passes that measured the point
 */
public record RailTraffic(List<String> interfaces, long[][] rxBytes, long[][] txBytes, long calls, long elapsedNs) {

    public RailTraffic {
        interfaces = List.copyOf(interfaces);
        rxBytes = copy(Objects.requireNonNull(rxBytes, "rxBytes"));
        txBytes = copy(Objects.requireNonNull(txBytes, "txBytes"));
        if (rxBytes.length != txBytes.length || rxBytes.length == 0) {
            throw new IllegalArgumentException("need the same node count (at least 1) for rx and tx");
        }
        for (int n = 0; n < rxBytes.length; n++) {
            if (rxBytes[n].length != interfaces.size() || txBytes[n].length != interfaces.size()) {
                throw new IllegalArgumentException("node " + n + " has counters for " + rxBytes[n].length
                        + " rails, expected " + interfaces.size());
            }
        }
        if (calls < 1 || elapsedNs < 0) {
            throw new IllegalArgumentException("need calls >= 1 and elapsedNs >= 0, got " + calls + ", " + elapsedNs);
        }
    }

    public int nodes() {
        return rxBytes.length;
    }

    public int rails() {
        return interfaces.size();
    }

    /** Bytes per call that reached nodes over {@code rail} (received, summed over every node). */
    public double intoRailPerCall(int rail) {
        long sum = 0;
        for (long[] node : rxBytes) {
            sum += node[rail];
        }
        return (double) sum / calls;
    }

    /** Bytes per call that nodes sent over {@code rail}. */
    public double outOfRailPerCall(int rail) {
        long sum = 0;
        for (long[] node : txBytes) {
            sum += node[rail];
        }
        return (double) sum / calls;
    }

    /** The node that received most over all its rails. */
    public int busiestNode() {
        int best = 0;
        for (int n = 1; n < nodes(); n++) {
            if (received(n) > received(best)) {
                best = n;
            }
        }
        return best;
    }

    /** Bytes per call into the busiest node, over all its rails. */
    public double intoBusiestNodePerCall() {
        return (double) received(busiestNode()) / calls;
    }

    /** Bytes per call into {@code node} on {@code rail}. */
    public double intoNodePerCall(int node, int rail) {
        return (double) rxBytes[node][rail] / calls;
    }

    private long received(int node) {
        long sum = 0;
        for (long b : rxBytes[node]) {
            sum += b;
        }
        return sum;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RailTraffic t && interfaces.equals(t.interfaces) && Arrays.deepEquals(rxBytes, t.rxBytes)
                && Arrays.deepEquals(txBytes, t.txBytes) && calls == t.calls && elapsedNs == t.elapsedNs;
    }

    @Override
    public int hashCode() {
        return Objects.hash(interfaces, Arrays.deepHashCode(rxBytes), Arrays.deepHashCode(txBytes), calls, elapsedNs);
    }

    @Override
    public String toString() {
        return "RailTraffic[" + interfaces + ", rx=" + Arrays.deepToString(rxBytes) + ", tx=" + Arrays.deepToString(txBytes)
                + ", calls=" + calls + ", elapsedNs=" + elapsedNs + "]";
    }

    private static long[][] copy(long[][] a) {
        long[][] out = new long[a.length][];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i].clone();
        }
        return out;
    }
}
