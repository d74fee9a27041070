package io.railcoll.bench.report;

import io.railcoll.bench.rails.PhysicalLimit;
import io.railcoll.bench.rails.PointAccount;
import io.railcoll.bench.rails.RailAccounts;
import io.railcoll.bench.rails.RailTraffic;
import io.railcoll.bench.rails.RailVerdict;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What makes a figure trustworthy in every view: both peers' columns, spread marks, impossible marks, accounting. */
class TrustMarksTest {
    static final Series MPJ = new Series(Collective.ALLGATHER, "mpj", 4, "4", 2, "niodev");
    static final long MIB = 1 << 20;
    static final PhysicalLimit LIMIT = new PhysicalLimit(12 * MIB, 2, 2_000_000_000L, 250_000);

    static List<BenchResult> results() {
        return List.of(Fixtures.point(Fixtures.RING, MIB, 40_000),
                // Samples from 30 ms to 90 ms: spread 3x.
                new BenchResult(Fixtures.SMP, MIB, 31_000, 30_000, 90_000, 5, OptionalDouble.empty()),
                Fixtures.point(Fixtures.PEER, MIB, 7_400),
                Fixtures.point(MPJ, MIB, 60_000));
    }

    static RailAccounts accounts() {
        RailAccounts a = new RailAccounts("kernel byte counters of rail0, rail1");
        long[][] rx = {{7_000_000, 7_000_000}, {7_000_000, 7_000_000}, {7_000_000, 7_000_000}, {7_000_000, 7_000_000}};
        RailTraffic full = new RailTraffic(List.of("rail0", "rail1"), rx, rx, 1, 40_000_000);
        for (BenchResult r : results()) {
            Optional<RailTraffic> t = Optional.of(full);
            a.put(r.series().algorithm(), r.sizeBytes(),
                    new PointAccount(t, Optional.of(LIMIT), RailVerdict.judge(r.latencyUsMedian(), LIMIT, t)));
        }
        return a;
    }

    static TableOptions options() {
        return TableOptions.withoutPeer(Set.of("allgather.ring")).withPeers(List.of("openmpi", "mpj")).withAccounts(accounts());
    }

    @Test
    void theConsoleShowsBothPeersAndMarksImpossibleAndSpreadPoints() {
        ResultTable t = ResultTable.build(results(), options()).getFirst();
        assertEquals(List.of("openmpi", "mpj"), t.peerLabels());
        String text = ConsoleTableWriter.render(t);
        assertTrue(text.contains("best/openmpi") && text.contains("best/mpj"), text);
        assertTrue(text.contains("7400!"), text);
        assertTrue(text.contains("31000~*"), text);
        assertTrue(text.contains("IMPOSSIBLE") && text.contains("spread more than 2.00x"), text);
        // best (31000) over each peer
        ResultTable.Row row = t.rows().getFirst();
        assertEquals(31_000 / 7_400.0, row.ratiosToPeers().get(0).getAsDouble(), 1e-9);
        assertEquals(31_000 / 60_000.0, row.ratiosToPeers().get(1).getAsDouble(), 1e-9);
    }

    @Test
    void theReportStatesTheRunAndTheAccounting() {
        MachineFacts m = new MachineFacts("2026-11-26T21:00:00Z", 2, "AMD EPYC", "25 (Test)", "Linux 6.18 amd64");
        RunFacts facts = new RunFacts(m, "1.00 2.00 3.00", "4.00 5.00 6.00", "abc123", List.of("5.0 s: reached quiet compilers"), List.of(),
                List.of("openmpi: Open MPI 4.1.4, /usr/bin/mpirun.openmpi", "mpj: MPJ Express 0.44, /usr/share/mpj"), accounts());
        ResultTable t = ResultTable.build(results(), options()).getFirst();
        String md = MarkdownReport.render("bin/railcoll bench", facts, List.of(new MarkdownReport.Section(t, Optional.empty())));
        for (String expected : List.of("| load before | 1.00 2.00 3.00 |", "| load after | 4.00 5.00 6.00 |",
                "| railcoll commit | abc123 |", "reached quiet compilers", "/usr/bin/mpirun.openmpi", "MPJ Express 0.44",
                "**31000** [30000-90000] ~", "7400 [6660-8140] **IMPOSSIBLE**", "**Impossible figures**",
                "| rail0 B/call in / out | rail1 B/call in / out |", "28.00 MB / 28.00 MB", "14.00 MB (12.58 MB)", "faster than the rails allow", "AMD EPYC")) {
            assertTrue(md.contains(expected), "missing '" + expected + "' in\n" + md);
        }
        assertTrue(RunHeader.render(facts).contains("load: before 1.00 2.00 3.00; after 4.00 5.00 6.00"));
    }

    @Test
    void theCsvCarriesPerRailBytesAndTheVerdict() throws Exception {
        StringWriter out = new StringWriter();
        CsvResults.write(out, results(), accounts());
        String csv = out.toString();
        assertTrue(csv.lines().findFirst().orElseThrow().endsWith(
                "rail_bytes_per_call,busiest_node_bytes_per_call,required_bytes_per_call,floor_us,share_of_limit,"
                        + "rate_reached_gbit_s,verdict,rail_sent_bytes_per_call"), csv);
        assertTrue(csv.contains("rail0=28000000;rail1=28000000,14000000,12582912,25165.824"), csv);
        assertTrue(csv.contains("IMPOSSIBLE: faster than the rails allow"), csv);
        assertTrue(csv.lines().filter(l -> l.startsWith("allgather,allgather.ring")).findFirst().orElseThrow().endsWith(",ok,rail0=28000000;rail1=28000000"), csv);
    }

    @Test
    void thirteenLinesAreDrawnThirteenWays() {
        Set<String> styles = new HashSet<>();
        for (int n = 0; n < 13; n++) {
            LatencyPlot.Style s = LatencyPlot.styleOf(n);
            styles.add(s.color() + "/" + s.marker().getClass().getSimpleName() + "/" + java.util.Arrays.toString(s.stroke().getDashArray()));
            for (int m = 0; m < n; m++) {
                LatencyPlot.Style o = LatencyPlot.styleOf(m);
                if (o.color().equals(s.color())) {
                    assertTrue(o.marker() != s.marker() || !java.util.Arrays.equals(o.stroke().getDashArray(), s.stroke().getDashArray()),
                            "lines " + m + " and " + n + " share colour and marker and line style");
                }
            }
        }
        assertEquals(13, styles.size());
    }
}
