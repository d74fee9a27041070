package io.railcoll.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code railcoll bench --collective local-reduce}: the local reduction loops against a plain copy, on this machine
 * (no cluster). Runs {@code io.railcoll.bench.LocalReduceBench} for each element type in three fresh JVMs: with the
 * Vector API's module (decision 0210: what a JVM started with {@code --add-modules jdk.incubator.vector} combines
 * with), without it (the staged loops), and without it with C2's auto-vectorisation off ({@code -XX:-UseSuperWord})
 * as the control. A JVM per type (decision 0236): in one JVM measuring the types in turn, the first type's combiner
 * is compiled into call sites that have seen nothing else and the later ones' into megamorphic ones, which at 1-8 KiB
 * flattered the first type. Prints per type and size each JVM's reduce GB/s and its ratio to the copy measured beside
 * it in the same JVM (issue 22's target: at least 0.7), by the wall clock and by thread CPU time ("cpu ratio": the
 * time the JVM spent descheduled left out). Writes {@code local-reduce.csv} into {@code --out}. {@code --sizes}
 * (vector bytes), {@code --samples} and {@code --sample-ms} apply.
 */
final class LocalReduceRun {
    static final String MODE = "local-reduce";
    static final String DEFAULT_SIZES = "8192,131072,4194304,67108864";
    private static final String BENCH_MAIN = "io.railcoll.bench.LocalReduceBench";
    private static final List<String> TYPES = List.of("int", "long", "float", "double");

    private final BenchCommand cmd;

    LocalReduceRun(BenchCommand cmd) {
        this.cmd = cmd;
    }

    int run() throws IOException, InterruptedException {
        String sizes = cmd.sizes.equals(BenchCommand.DEFAULT_SIZES) ? DEFAULT_SIZES
                : BenchCommand.parseSizes(cmd.sizes).stream().map(String::valueOf).collect(Collectors.joining(","));
        List<String> args = List.of("sizes=" + sizes, "samples=" + cmd.samples, "sample-ms=" + Math.min(cmd.sampleMs, 100));
        PrintStream out = System.out;
        out.println("local reduction (sum) against MemorySegment.copy, " + Runtime.getRuntime().availableProcessors()
                + " processors, load average " + loadAverage() + "; GB/s counts the vector's bytes once");
        Map<String, Map<String, String>> vectorApi = new LinkedHashMap<>();
        Map<String, Map<String, String>> staged = new LinkedHashMap<>();
        Map<String, Map<String, String>> scalar = new LinkedHashMap<>();
        for (String type : TYPES) {
            List<String> typeArgs = new ArrayList<>(args);
            typeArgs.add("types=" + type);
            vectorApi.putAll(measure(typeArgs, List.of("--add-modules=jdk.incubator.vector")));
            staged.putAll(measure(typeArgs, List.of()));
            scalar.putAll(measure(typeArgs, List.of("-XX:-UseSuperWord")));
        }
        requirePath(vectorApi, true);
        requirePath(staged, false);
        out.printf(Locale.ROOT, "%-7s %10s %10s %11s %7s %9s %10s %11s %7s %9s %17s%n", "type", "bytes", "copy GB/s",
                "vector GB/s", "ratio", "cpu ratio", "copy GB/s", "staged GB/s", "ratio", "cpu ratio",
                "no-SuperWord GB/s");
        List<String> csv = new ArrayList<>();
        csv.add("type,op,bytes,copy_gbs,reduce_gbs,ratio,reduce_gelems,staged_copy_gbs,staged_reduce_gbs,staged_ratio,"
                + "reduce_gbs_without_superword,copy_cpu_ns,reduce_cpu_ns,cpu_ratio,staged_copy_cpu_ns,"
                + "staged_reduce_cpu_ns,staged_cpu_ratio");
        for (Map.Entry<String, Map<String, String>> e : vectorApi.entrySet()) {
            Map<String, String> row = e.getValue();
            Map<String, String> loops = staged.getOrDefault(e.getKey(), Map.of());
            Map<String, String> control = scalar.get(e.getKey());
            double plain = control == null ? Double.NaN : Double.parseDouble(control.get("reduce_gbs"));
            out.printf(Locale.ROOT, "%-7s %10s %10s %11s %7s %9s %10s %11s %7s %9s %17.3f%n", row.get("type"),
                    row.get("bytes"), row.get("copy_gbs"), row.get("reduce_gbs"), row.get("ratio"),
                    row.get("cpu_ratio"), loops.get("copy_gbs"), loops.get("reduce_gbs"), loops.get("ratio"),
                    loops.get("cpu_ratio"), plain);
            csv.add(String.join(",", row.get("type"), row.get("op"), row.get("bytes"), row.get("copy_gbs"),
                    row.get("reduce_gbs"), row.get("ratio"), row.get("reduce_gelems"), loops.get("copy_gbs"),
                    loops.get("reduce_gbs"), loops.get("ratio"), String.format(Locale.ROOT, "%.3f", plain),
                    row.get("copy_cpu_ns"), row.get("reduce_cpu_ns"), row.get("cpu_ratio"), loops.get("copy_cpu_ns"),
                    loops.get("reduce_cpu_ns"), loops.get("cpu_ratio")));
        }
        Files.createDirectories(cmd.out);
        Path file = cmd.out.resolve("local-reduce.csv");
        Files.write(file, csv);
        out.println("wrote " + file);
        return 0;
    }

    /** Runs the bench in a child JVM with {@code jvmFlags}; its rows keyed by type and size. */
    private static Map<String, Map<String, String>> measure(List<String> args, List<String> jvmFlags)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(BENCH_MAIN);
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        List<String> other = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.startsWith("LOCALREDUCE ")) {
                    other.add(line);
                    continue;
                }
                Map<String, String> fields = new LinkedHashMap<>();
                for (String field : line.substring("LOCALREDUCE ".length()).split(" ")) {
                    int eq = field.indexOf('=');
                    fields.put(field.substring(0, eq), field.substring(eq + 1));
                }
                rows.put(fields.get("type") + "/" + fields.get("bytes"), fields);
            }
        }
        // The child ends by itself when its sizes are done; the deadline only guards against a hung JVM.
        if (!process.waitFor(30, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IOException(BENCH_MAIN + " " + jvmFlags + " did not finish within 30 minutes");
        }
        if (process.exitValue() != 0) {
            throw new IOException(BENCH_MAIN + " " + jvmFlags + " failed (exit " + process.exitValue() + "): "
                    + String.join("\n", other));
        }
        return rows;
    }

    /** Every row says whether its JVM combined with the Vector API: the columns must be what they are labelled. */
    private static void requirePath(Map<String, Map<String, String>> rows, boolean vectorApi) throws IOException {
        for (Map<String, String> row : rows.values()) {
            if (Boolean.parseBoolean(row.get("vector_api")) != vectorApi) {
                throw new IOException(BENCH_MAIN + " combined " + (vectorApi ? "without" : "with") + " the Vector API"
                        + " where it was started " + (vectorApi ? "with" : "without") + " its module: " + row);
            }
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
