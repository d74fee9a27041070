package io.railcoll.cli;

import io.railcoll.bench.PointToPointBenchApp;
import io.railcoll.bench.peer.OpenMpiPeer;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.CsvResults;
import io.railcoll.bench.report.CsvRows;
import io.railcoll.bench.report.Samples;
import io.railcoll.bench.report.Series;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.launcher.testbed.TestbedSpec;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * {@code railcoll bench --collective bandwidth|bibandwidth|latency}: paper 004's point-to-point benchmarks between
 * rank 0 and a rank on another node, for one or several rail configurations measured on the same testbed in one
 * run ({@code --configs 1:single,2:single,2:threaded}). Prints bandwidth (or latency) per size and configuration,
 * the targets when the rail rate is known, and paper 004's elapsed-time breakdown (post vs wait); writes CSV rows
 * with {@code bandwidth_mbit_s}.
 */
final class PointToPointBench {
    static final List<String> MODES = List.of("bandwidth", "bibandwidth", "latency");
    static final String DEFAULT_SIZES = "8,64,512,4096,32768,262144,1048576,4194304";
    /** The columns of {@link PointToPointBenchApp}'s raw file, one line per sample. */
    static final List<String> RAW_COLUMNS = List.of("mode", "size_bytes", "us_per_message", "bandwidth_mbit_s",
            "post_us", "wait_us");

    /** One configuration: how many rails and which engine. */
    record RailConfig(int rails, String engine) {
        static List<RailConfig> parseAll(String spec) {
            List<RailConfig> out = new ArrayList<>();
            for (String part : spec.split(",")) {
                String[] f = part.strip().split(":");
                if (f.length != 2) {
                    throw new IllegalArgumentException("--configs wants RAILS:ENGINE,... (e.g. 1:single,2:threaded), got '" + part + "'");
                }
                out.add(new RailConfig(Integer.parseInt(f[0]), f[1]));
            }
            return out;
        }

        String label() {
            return rails + (rails == 1 ? " rail " : " rails ") + engine;
        }
    }

    private final BenchCommand cmd;
    private final String mode;

    PointToPointBench(BenchCommand cmd, String mode) {
        this.cmd = cmd;
        this.mode = mode;
    }

    int run() throws Exception {
        List<RailConfig> configs = cmd.configs == null
                ? List.of(new RailConfig(cmd.cluster.rails, cmd.cluster.engine()))
                : RailConfig.parseAll(cmd.configs);
        Placement placement = cmd.cluster.placement != null || cmd.cluster.nodes != 4 || cmd.cluster.ranksPerNode != 4
                ? cmd.cluster.placement() : Placement.uniform(2, 1);
        String sizeSpec = cmd.sizes.equals(BenchCommand.DEFAULT_SIZES) ? DEFAULT_SIZES : cmd.sizes;
        List<Long> sizes = BenchCommand.parseSizes(sizeSpec);
        Files.createDirectories(cmd.out);
        int maxRails = configs.stream().mapToInt(RailConfig::rails).max().orElse(1);
        cmd.cluster.rails = maxRails;
        List<BenchResult> results = new ArrayList<>();
        Map<RailConfig, Map<Long, double[]>> breakdown = new LinkedHashMap<>();
        try (NodeNetwork network = cmd.cluster.network(placement)) {
            System.out.println("railcoll bench: " + mode + " between rank 0 and rank 1 (" + placement.describe() + "); "
                    + network.describe());
            for (RailConfig c : configs) {
                Path raw = cmd.out.resolve("raw-" + mode + "-" + c.rails() + "-" + c.engine() + ".csv");
                Files.deleteIfExists(raw);
                List<String> args = List.of("mode=" + mode,
                        "sizes=" + sizes.stream().map(String::valueOf).collect(Collectors.joining(",")),
                        "window=" + cmd.iterations, "warmup=" + Math.min(cmd.warmup, 3), "samples=" + cmd.samples,
                        "budget-ms=" + cmd.sampleMs, "check=" + cmd.check, "out=" + raw.toAbsolutePath());
                Map<String, String> env = new LinkedHashMap<>(cmd.cluster.environment());
                env.put("RAILCOLL_ENGINE", c.engine());
                JobSpec spec = new JobSpec(placement, c.rails(), PointToPointBenchApp.class.getName(), args, env,
                        List.of(), Duration.ofHours(1));
                System.out.println("-- " + c.label());
                PrintStream quiet = LineRouter.printStream(line -> line.startsWith("[r0] PROGRESS "), System.out);
                JobResult r = new JobLauncher(quiet, System.err).run(spec, network);
                if (!r.succeeded()) {
                    System.err.println("railcoll bench: the " + c.label() + " job failed on rank " + r.failedRank() + ": " + r.failure());
                    return r.exitCode() == 0 ? 1 : r.exitCode();
                }
                breakdown.put(c, read(raw, mode, c, placement, results));
            }
            if (OpenMpiPeer.NAME.equals(cmd.peer)) {
                if (network instanceof NamespaceNetwork ns && placement.size() == 2) {
                    System.out.println("-- Open MPI, TCP BTL over rail0 and rail1");
                    results.addAll(OpenMpiOverRails.run(mode, ns, placement, sizes, cmd.samples, cmd.check));
                } else {
                    System.out.println("peer: Open MPI over the rails needs --netns and 2 ranks; skipped");
                }
            }
        }
        printTable(configs, sizes, results);
        printBreakdown(breakdown);
        Path csv = cmd.csv != null ? cmd.csv : cmd.out.resolve("results.csv");
        CsvResults.write(csv, results);
        System.out.println("CSV: " + csv);
        return 0;
    }

    /**
     * Reads one configuration's raw samples ({@link PointToPointBenchApp}'s lines) into results; returns the median
     * bandwidth, post and wait (Mbit/s, us, us) per size. A malformed line is an error naming its file and line.
     */
    static Map<Long, double[]> read(Path raw, String mode, RailConfig c, Placement placement, List<BenchResult> out)
            throws IOException {
        Map<Long, Samples> latency = new LinkedHashMap<>();
        Map<Long, List<double[]>> extra = new LinkedHashMap<>();
        CsvRows.forEach(raw, RAW_COLUMNS, row -> {
            long size = row.wholeNumber(1);
            latency.computeIfAbsent(size, k -> new Samples()).addUs(row.number(2));
            extra.computeIfAbsent(size, k -> new ArrayList<>()).add(new double[] {row.number(3), row.number(4),
                    row.number(5)});
        });
        Collective collective = mode.equals("bibandwidth") ? Collective.ALLGATHER : Collective.BROADCAST;
        Series series = Series.of(collective, "p2p." + mode, placement, c.rails(), c.engine());
        Map<Long, double[]> medians = new LinkedHashMap<>();
        for (var e : latency.entrySet()) {
            List<double[]> rows = extra.get(e.getKey());
            double[] m = {median(rows, 0), median(rows, 1), median(rows, 2)};
            medians.put(e.getKey(), m);
            out.add(BenchResult.of(series, e.getKey(), e.getValue()).withBandwidthMbitS(m[0]));
        }
        return medians;
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private void printTable(List<RailConfig> configs, List<Long> sizes, List<BenchResult> results) {
        boolean lat = mode.equals("latency");
        StringBuilder sb = new StringBuilder();
        boolean peer = results.stream().anyMatch(r -> r.series().algorithm().equals(OpenMpiPeer.NAME));
        // The median is what to expect; the best sample is what the rails can do when the machine lets them
        // (this one is shared, and a sample can lose its core for milliseconds).
        for (boolean best : new boolean[] {false, true}) {
            sb.append(String.format(Locale.ROOT, "%n%s (%s, %s of %d samples)%n", mode,
                    lat ? "one-way latency, us" : "Mbit/s", best ? "best" : "median", cmd.samples));
            sb.append(String.format(Locale.ROOT, "%10s", "size"));
            for (RailConfig c : configs) {
                sb.append(String.format(Locale.ROOT, "%20s", c.label()));
            }
            if (peer) {
                sb.append(String.format(Locale.ROOT, "%20s%14s", "Open MPI 2 rails", "best/OpenMPI"));
            }
            sb.append(System.lineSeparator());
            for (long size : sizes) {
                sb.append(String.format(Locale.ROOT, "%10s", human(size)));
                double top = lat ? Double.MAX_VALUE : 0;
                for (RailConfig c : configs) {
                    double v = value(find(results, c, size), lat, best);
                    top = lat ? Math.min(top, v) : Math.max(top, v);
                    sb.append(String.format(Locale.ROOT, lat ? "%20.1f" : "%20.0f", v));
                }
                if (peer) {
                    BenchResult p = results.stream().filter(r -> r.sizeBytes() == size
                            && r.series().algorithm().equals(OpenMpiPeer.NAME)).findFirst().orElse(null);
                    double v = value(p, lat, best);
                    // Ratio > 1 means railcoll's best configuration is better (faster or more bandwidth).
                    sb.append(String.format(Locale.ROOT, lat ? "%20.1f%14.2f" : "%20.0f%14.2f", v, lat ? v / top : top / v));
                }
                sb.append(System.lineSeparator());
            }
        }
        OptionalLong rate = cmd.cluster.railRate == null ? OptionalLong.empty()
                : OptionalLong.of(TestbedSpec.parseRateBitsPerSecond(cmd.cluster.railRate));
        if (rate.isPresent() && !lat) {
            double r = rate.getAsLong() / 1e6;
            int rails = configs.stream().mapToInt(RailConfig::rails).max().orElse(1);
            double target = mode.equals("bandwidth") ? 0.9 * rails * r : 0.8 * 2 * rails * r;
            sb.append(String.format(Locale.ROOT, "target for %d rails at R = %.0f Mbit/s: %s = %.0f Mbit/s (sizes >= 256 KiB)%n",
                    rails, r, mode.equals("bandwidth") ? "90% of " + rails + "R" : "80% of " + 2 * rails + "R", target));
        }
        System.out.print(sb);
    }

    /** Latency (us) or bandwidth (Mbit/s) of a point: its median, or its best sample. */
    private double value(BenchResult r, boolean latency, boolean best) {
        if (r == null) {
            return Double.NaN;
        }
        if (latency) {
            return best ? r.latencyUsMin() : r.latencyUsMedian();
        }
        if (!best) {
            return r.bandwidthMbitS().orElse(Double.NaN);
        }
        double bytes = mode.equals("bibandwidth") ? 2.0 * r.sizeBytes() : r.sizeBytes();
        return r.latencyUsMin() == 0 ? Double.NaN : bytes * 8 / r.latencyUsMin();
    }

    private void printBreakdown(Map<RailConfig, Map<Long, double[]>> breakdown) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%nelapsed-time breakdown on rank 0 (paper 004 sec. 5.5), us per message: post / wait%n"));
        for (long size : new long[] {512, 4096}) {
            sb.append(String.format(Locale.ROOT, "%10s", human(size)));
            for (var e : breakdown.entrySet()) {
                double[] m = e.getValue().get(size);
                sb.append(m == null ? String.format(Locale.ROOT, "%36s", "-")
                        : String.format(Locale.ROOT, "%36s", e.getKey().label() + ": " + fmt(m[1]) + " / " + fmt(m[2])));
            }
            sb.append(System.lineSeparator());
        }
        System.out.print(sb);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static BenchResult find(List<BenchResult> results, RailConfig c, long size) {
        for (BenchResult r : results) {
            if (r.sizeBytes() == size && r.series().rails() == c.rails() && r.series().engine().equals(c.engine())
                    && !r.series().algorithm().equals(OpenMpiPeer.NAME)) {
                return r;
            }
        }
        return null;
    }

    static String human(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " B";
    }

    static boolean isMode(String collective) {
        return MODES.contains(collective);
    }
}
