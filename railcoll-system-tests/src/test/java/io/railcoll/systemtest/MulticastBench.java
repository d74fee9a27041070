package io.railcoll.systemtest;

import io.railcoll.launcher.testbed.NetnsTestbed;
import io.railcoll.launcher.testbed.TestbedSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The multicast broadcast benchmark (a main, not a test), paper 003's figures in spirit, on the network-namespace
 * testbed (one member process per node; rail 0 carries multicast, rail 1 has no multicast route, so a group on
 * it runs the point-to-point fail-over tree):
 * <ol>
 *   <li>latency by size, 8 members: multicast reliable (CRC32C), reliable with the additive checksum, unreliable,
 *       and the tree (Fig. 7; with Fig. 9, the cost of reliability by size);</li>
 *   <li>8-byte latency for 2, 4, 8, 16 receivers, multicast reliable vs tree (Fig. 8);</li>
 *   <li>8-byte latency with 2, 4, 8, 16 channels (Fig. 10).</li>
 * </ol>
 * Latency = time of {@code iterations} broadcasts from rank 0 between two synchronizations, divided by
 * {@code iterations}; the median of the samples of rank 0 is reported. Needs root. Usage (from the repository root,
 * after {@code mvn -B -ntp -pl railcoll-system-tests -am test-compile}):
 * <pre>
 *   java -cp "$(cat railcoll-system-tests/target/bench.classpath)" io.railcoll.systemtest.MulticastBench [out.md] [--quick]
 * </pre>
 */
public final class MulticastBench {
    private MulticastBench() {
    }

    private record Row(String mode, int members, int channels, int bytes, double medianUs, double minUs, boolean failedOver,
                       long retransmissions) {
    }

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick");
        int at = List.of(args).indexOf("--configs");
        if (at >= 0) {
            // Ad-hoc: --configs "mode:comm:channels:bytes:iterations:samples;..." --members N
            int members = Integer.parseInt(args[List.of(args).indexOf("--members") + 1]);
            for (Row r : run(members, List.of(args[at + 1].split(";")))) {
                System.out.println(r);
            }
            return;
        }
        Path out = args.length > 0 && !args[0].startsWith("--") ? Path.of(args[0]) : null;
        NetnsTestbed.removeLeftovers(NetnsTestbed.ALL);
        int[] sizes = quick ? new int[] {8, 4096, 65536, 1 << 20} : new int[] {8, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20};
        StringBuilder md = new StringBuilder();

        // Figures 7 and 9: latency by size and the cost of reliability, 8 members.
        List<String> configs = new ArrayList<>(WARM_UP);
        int comm = 100;
        for (String mode : List.of("reliable", "additive", "unreliable", "tree")) {
            for (int size : sizes) {
                configs.add(mode + ":" + comm++ + ":16:" + size + ":" + iterations(size, quick) + ":" + (quick ? 3 : 5));
            }
        }
        for (int ch : new int[] {2, 4, 8, 16}) {
            configs.add("reliable:" + comm++ + ":" + ch + ":8:" + iterations(8, quick) + ":" + (quick ? 3 : 5));
        }
        List<Row> rows8 = run(8, configs);
        md.append("### Latency by size, 8 members (Fig. 7), and the cost of reliability (Fig. 9)\n\n");
        md.append("Each cell: median (minimum) over the samples, µs per broadcast.\n\n");
        md.append("| bytes | multicast reliable CRC32C | reliable additive | unreliable | point-to-point tree | CRC32C cost (medians) | re-sent datagrams (reliable) |\n");
        md.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (int size : sizes) {
            Row r = find(rows8, "reliable", size, 16);
            Row a = find(rows8, "additive", size, 16);
            Row u = find(rows8, "unreliable", size, 16);
            Row t = find(rows8, "tree", size, 16);
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %+.1f | %d |\n", size, cell(r), cell(a), cell(u),
                    cell(t), r.medianUs - u.medianUs, r.retransmissions));
        }
        md.append("\n### 8-byte latency by number of channels, 8 members (Fig. 10)\n\n| channels | µs per broadcast, median (min) |\n| ---: | ---: |\n");
        for (int ch : new int[] {2, 4, 8, 16}) {
            Row r = rows8.stream().filter(x -> x.mode.equals("reliable") && x.bytes == 8 && x.channels == ch)
                    .reduce((x, y) -> y).orElseThrow();
            md.append(String.format(Locale.ROOT, "| %d | %s |\n", ch, cell(r)));
        }

        // Figure 8: scalability, 8 bytes.
        md.append("\n### 8-byte latency by number of receivers (Fig. 8)\n\n| receivers | multicast reliable, median (min) µs | point-to-point tree, median (min) µs |\n| ---: | ---: | ---: |\n");
        for (int receivers : quick ? new int[] {2, 8} : new int[] {2, 4, 8, 16}) {
            List<String> scaling = new ArrayList<>(WARM_UP);
            scaling.addAll(List.of(
                    "reliable:200:16:8:" + iterations(8, quick) + ":" + (quick ? 3 : 5),
                    "tree:201:16:8:" + iterations(8, quick) + ":" + (quick ? 3 : 5)));
            List<Row> rows = run(receivers + 1, scaling);
            md.append(String.format(Locale.ROOT, "| %d | %s | %s |\n", receivers, cell(find(rows, "reliable", 8, 16)),
                    cell(find(rows, "tree", 8, 16))));
        }
        System.out.println(md);
        if (out != null) {
            Files.writeString(out, md.toString());
        }
    }

    /** Prints each node's UDP receive errors (socket buffer overflows), so a run with losses says where. */
    private static void udpDrops(NetnsTestbed tb, int members) throws Exception {
        StringBuilder sb = new StringBuilder("  UDP receive-buffer errors per node:");
        for (int n = 0; n < members; n++) {
            Process p = new ProcessBuilder(List.of("ip", "netns", "exec", tb.nodeNamespace(n), "nstat", "-az", "UdpRcvbufErrors"))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("UdpRcvbufErrors\\s+(\\d+)").matcher(out);
            sb.append(' ').append(m.find() ? m.group(1) : "?");
        }
        System.err.println(sb);
    }

    /** Discarded first: brings every member's JIT up to speed on both paths, so the first figures are not cold. */
    private static final List<String> WARM_UP = List.of("reliable:90:16:8:3000:1", "reliable:91:16:65536:200:1",
            "unreliable:92:16:4096:1000:1", "tree:93:16:8:2000:1", "tree:94:16:65536:200:1");

    private static int iterations(int size, boolean quick) {
        int n = size <= 4096 ? 1000 : size <= 65536 ? 200 : size <= 262144 ? 40 : size <= (1 << 20) ? 12 : 4;
        return quick ? Math.max(2, n / 4) : n;
    }

    private static String cell(Row r) {
        return String.format(Locale.ROOT, "%.1f (%.1f)", r.medianUs, r.minUs);
    }

    private static Row find(List<Row> rows, String mode, int bytes, int channels) {
        return rows.stream().filter(r -> r.mode.equals(mode) && r.bytes == bytes && r.channels == channels).findFirst()
                .orElseThrow(() -> new IllegalStateException("no result for " + mode + " " + bytes + " B " + channels + " channels"));
    }

    private static List<Row> run(int members, List<String> configs) throws Exception {
        System.err.println("testbed with " + members + " nodes: " + configs.size() + " configurations");
        try (NetnsTestbed tb = NetnsTestbed.start(TestbedSpec.of(members, 2))) {
            List<MulticastProcesses.Member> m = new ArrayList<>();
            for (int n = 0; n < members; n++) {
                m.add(new MulticastProcesses.Member(n, tb.commandPrefix(n), tb.railAddress(n, 0).getHostAddress()));
            }
            String ranks = String.join(",", m.stream().map(x -> Integer.toString(x.rank())).toList());
            try (MulticastProcesses p = new MulticastProcesses(m, MulticastBenchMember.class,
                    x -> List.of(Integer.toString(x.rank()), ranks, x.railAddress(), tb.railAddress(x.rank(), 1).getHostAddress(),
                            String.join(";", configs)),
                    "mcast-bench-" + ProcessHandle.current().pid() + "-" + members, Map.of(),
                    List.of("-Xmx192m", "-XX:+UseSerialGC"))) {
                List<Row> rows = new ArrayList<>();
                for (int i = 0; i < configs.size(); i++) {
                    String line = p.nextLine(0, 600);
                    while (line.startsWith("LOG") || line.startsWith("COUNTERS")) {
                        line = p.nextLine(0, 600);
                    }
                    if (!line.startsWith("RESULT ")) {
                        StringBuilder why = new StringBuilder("rank 0: " + line);
                        for (int k = 1; k < members; k++) {
                            why.append("\n--- rank ").append(k).append(" ---\n").append(p.output(k));
                        }
                        throw new IllegalStateException(why.toString());
                    }
                    String[] f = line.split(" ");
                    Row r = new Row(f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
                            Double.parseDouble(f[5]), Double.parseDouble(f[6]), Boolean.parseBoolean(f[7]), Long.parseLong(f[8]));
                    System.err.println("  " + line);
                    if (!WARM_UP.contains(configs.get(i))) {
                        rows.add(r);
                    }
                }
                List<String> outcomes = p.outcomes(120);
                udpDrops(tb, members);
                if (System.getenv("MCAST_BENCH_VERBOSE") != null) {
                    for (int i = 0; i < members; i++) {
                        System.err.println(p.output(i).lines().filter(l -> l.startsWith("rank ")).collect(java.util.stream.Collectors.joining("\n")));
                    }
                }
                for (int i = 0; i < outcomes.size(); i++) {
                    if (!outcomes.get(i).startsWith("DONE")) {
                        throw new IllegalStateException("member " + i + ": " + outcomes.get(i) + "\n" + p.output(i));
                    }
                }
                return rows;
            }
        }
    }

}
