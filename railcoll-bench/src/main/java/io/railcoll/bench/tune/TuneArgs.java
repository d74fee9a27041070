package io.railcoll.bench.tune;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The key=value arguments of the tuning experiments.
 *
 * @param sizes       message sizes in bytes ({@code sizes=1,4096,...}); block sizes for collectives
 * @param collectives collectives to sweep ({@code collectives=allgather,alltoall}), for {@link SweepApp}
 * @param algorithms  algorithm ids, {@code all} (every one of the collective that supports the placement) and/or
 *                    {@code auto} (what selection picks), for {@link SweepApp}
 * @param samples    samples per point
 * @param warmup     untimed calls before a point's samples
 * @param budgetNs   target duration of one sample ({@code budget-ms})
 * @param out        file rank 0 writes its lines to
 */
record TuneArgs(long[] sizes, List<String> collectives, List<String> algorithms, int samples, int warmup, long budgetNs, Path out) {

    static TuneArgs parse(List<String> args) {
        long[] sizes = {1, 1024, 1 << 20};
        List<String> collectives = List.of("allgather");
        List<String> algorithms = List.of("all");
        int samples = 5;
        int warmup = 3;
        long budgetNs = 50_000_000L;
        Path out = Path.of("tune-raw.csv");
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got " + a);
            }
            String k = a.substring(0, eq);
            String v = a.substring(eq + 1);
            switch (k) {
                case "sizes" -> sizes = Arrays.stream(v.split(",")).mapToLong(Long::parseLong).toArray();
                case "collectives" -> collectives = new ArrayList<>(List.of(v.split(",")));
                case "algorithms" -> algorithms = new ArrayList<>(List.of(v.split(",")));
                case "samples" -> samples = Integer.parseInt(v);
                case "warmup" -> warmup = Integer.parseInt(v);
                case "budget-ms" -> budgetNs = Long.parseLong(v) * 1_000_000L;
                case "out" -> out = Path.of(v);
                default -> throw new IllegalArgumentException("unknown tuning argument '" + k + "'");
            }
        }
        if (samples < 1 || warmup < 0 || budgetNs <= 0) {
            throw new IllegalArgumentException("need samples >= 1, warmup >= 0, budget-ms > 0");
        }
        return new TuneArgs(sizes, List.copyOf(collectives), List.copyOf(algorithms), samples, warmup, budgetNs, out);
    }

    long maxSize() {
        return Arrays.stream(sizes).max().orElse(0);
    }
}
