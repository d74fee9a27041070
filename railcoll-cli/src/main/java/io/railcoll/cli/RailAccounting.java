package io.railcoll.cli;

import io.railcoll.bench.rails.PhysicalLimit;
import io.railcoll.bench.rails.PointAccount;
import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.bench.rails.RailLedger;
import io.railcoll.bench.rails.RailTraffic;
import io.railcoll.bench.rails.RailVerdict;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Rail accounting for one {@code bench} run: knows which network the sweeps ran on (the testbed's rail interfaces,
 * rate and token bucket, or loopback, where rails are not separable), collects the counter lines of railcoll's
 * sweeps and of each peer, and judges every point against its physical limit. One per run; not thread-safe.
 */
final class RailAccounting {
    private final Collective collective;
    private final Placement placement;
    private final int root;
    private final int rails;
    private final Map<RailLedger.Point, RailTraffic> traffic = new HashMap<>();
    private boolean namespaces;
    private OptionalLong rate = OptionalLong.empty();
    private long burst;
    private String networkText = "";

    RailAccounting(Collective collective, Placement placement, int root, int rails) {
        this.collective = collective;
        this.placement = placement;
        this.root = root;
        this.rails = rails;
    }

    /** The network a sweep runs on (the same kind for every sweep of a run). */
    void network(NodeNetwork network) {
        namespaces = network instanceof NamespaceNetwork;
        rate = network.railRateBitsPerSecond();
        burst = network.railBurstBytes().orElse(0);
        networkText = network.describe();
    }

    /** The interfaces the ranks count: the testbed's rails; none on loopback, where rails are not separable. */
    List<String> interfaces() {
        if (!namespaces) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (int r = 0; r < rails; r++) {
            names.add(NetnsTestbed.railInterface(r));
        }
        return names;
    }

    /** railcoll's counter lines of one sweep; its labels get the sweep's suffix, as its results do. */
    void addRailcollLines(List<String> lines, String labelSuffix) {
        RailLedger ledger = new RailLedger(placement, interfaces());
        lines.forEach(ledger::accept);
        ledger.traffic().forEach((point, t) ->
                traffic.put(new RailLedger.Point(point.label() + labelSuffix, point.sizeBytes()), t));
    }

    /** A peer's counter lines (every rank's; the ledger keeps each node's first). */
    void addPeerLines(String peer, List<String> lines) {
        RailLedger ledger = new RailLedger(placement, interfaces());
        lines.forEach(ledger::accept);
        ledger.traffic().forEach((point, t) -> traffic.put(new RailLedger.Point(peer, point.sizeBytes()), t));
    }

    /** Every point judged: its traffic, its limit (with a rail rate) and its verdict. */
    RailAccounts judge(List<BenchResult> results) {
        RailAccounts accounts = new RailAccounts(scope());
        if (!namespaces && rate.isEmpty()) {
            return accounts;
        }
        for (BenchResult r : results) {
            Optional<RailTraffic> t = Optional.ofNullable(traffic.get(new RailLedger.Point(r.series().algorithm(),
                    r.sizeBytes())));
            Optional<PhysicalLimit> limit = rate.isPresent() && placement.nodeCount() > 1
                    ? Optional.of(PhysicalLimit.of(collective, placement, r.sizeBytes(), root, rails, rate.getAsLong(), burst))
                    : Optional.empty();
            RailVerdict verdict = limit.map(l -> RailVerdict.judge(r.latencyUsMedian(), l, t))
                    .orElseGet(() -> RailVerdict.judgeBytes(PhysicalLimit.intoBusiestNode(collective, placement, r.sizeBytes(), root), t));
            accounts.put(r.series().algorithm(), r.sizeBytes(), new PointAccount(t, limit, verdict));
        }
        return accounts;
    }

    private String scope() {
        if (!namespaces) {
            return "loopback rails: every rail is this host's lo, shared by every node and everything else on the host, "
                    + "so rails are not separable and no bytes are counted";
        }
        return "kernel byte counters (/proc/net/dev) of " + String.join(", ", interfaces())
                + " read in every node's namespace around every point; " + rails + " rail" + (rails == 1 ? "" : "s")
                + (rate.isPresent() ? " x " + RailVerdict.rate(rate.getAsLong()) + " per direction, token bucket " + burst
                + " B per link" : " without a rate (no physical limit)") + "; " + networkText;
    }
}
