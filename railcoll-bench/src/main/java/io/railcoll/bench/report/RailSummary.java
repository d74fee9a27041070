package io.railcoll.bench.report;

import io.railcoll.bench.rails.PointAccount;
import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.bench.rails.RailTraffic;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The console's rail accounting: one line per counted point, with the bytes per call on each rail, the bytes into
 * the busiest node against what the collective must bring there, the rate reached, the figure's share of the limit
 * and, for an impossible point, why. Stateless.
 */
public final class RailSummary {
    private RailSummary() {
    }

    public static void print(PrintStream out, List<BenchResult> results, RailAccounts accounts) {
        if (accounts.isEmpty()) {
            return; // the run header already said why nothing was counted
        }
        out.println("rail accounting - bytes per call received on each rail (all nodes), into the busiest node (what it must"
                + " get), rate reached there, share of the physical limit:");
        for (BenchResult r : results) {
            PointAccount a = accounts.get(r.series().algorithm(), r.sizeBytes()).orElse(null);
            if (a == null) {
                continue;
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-28s %6s  %10s us", r.series().algorithm(),
                    Sizes.label(r.sizeBytes()), Numbers.latencyUs(r.latencyUsMedian())));
            if (a.traffic().isPresent()) {
                RailTraffic t = a.traffic().get();
                for (int k = 0; k < t.rails(); k++) {
                    line.append("  ").append(t.interfaces().get(k)).append(' ').append(RailAccountingTable.bytes(t.intoRailPerCall(k)));
                }
                line.append("  busiest node ").append(RailAccountingTable.bytes(t.intoBusiestNodePerCall()));
            } else {
                line.append("  not counted");
            }
            a.limit().ifPresent(l -> line.append(" (must ").append(RailAccountingTable.bytes(l.intoBusiestNodeBytes())).append(')'));
            if (a.traffic().isPresent() && r.latencyUsMedian() > 0) {
                line.append(String.format(Locale.ROOT, "  %.2f Gbit/s", a.traffic().get().intoBusiestNodePerCall() * 8
                        / r.latencyUsMedian() / 1000));
            }
            a.limit().filter(l -> l.intoBusiestNodeBytes() > 0).ifPresent(l -> line.append(String.format(Locale.ROOT,
                    "  floor %s us, %.0f%% of the limit", Numbers.latencyUs(l.floorUs()), 100 * l.shareOf(r.latencyUsMedian()))));
            if (a.verdict().impossible()) {
                line.append("  IMPOSSIBLE: ").append(a.verdict().reason());
            }
            out.println(line);
        }
    }
}
