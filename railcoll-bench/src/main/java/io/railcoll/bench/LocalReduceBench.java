package io.railcoll.bench;

import io.railcoll.reduce.Combiner;
import io.railcoll.reduce.Combiners;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Local reduction speed against a plain copy in the same run (issue 22: the combining loops must run at memory
 * speed). For each element type and vector size it times, in alternation, {@code MemorySegment.copy(in, out)} and
 * {@code Combiners.of(type, op).combine(in, out)} over the same two 64-byte-aligned native segments, so both see
 * the same caches and the same load. A sample is a batch of calls lasting about {@code sample-ms}; the figures are
 * the median over samples of copy GB/s, reduce GB/s and the per-sample ratio reduce/copy (paired, so a burst of
 * load from other processes hits both sides of one ratio). GB/s counts the vector's bytes once: a copy reads and
 * writes them, a reduction reads two vectors and writes one.
 *
 * <p>One line per (type, size) on standard output:
 * <pre>
 * LOCALREDUCE type=int op=sum bytes=8192 copy_gbs=... reduce_gbs=... ratio=... reduce_gelems=...
 * </pre>
 * Arguments (key=value): types (default int,long,float,double), op (default sum), sizes in bytes (default
 * 8192,131072,4194304,67108864: first-level cache, second-level cache, last-level cache, memory on this host),
 * samples (default 9), sample-ms (default 40), warmup-ms (default 1500). {@code bin/railcoll bench --collective
 * local-reduce} runs it three times: with the Vector API's module (the combiners of decision 0210), without it (the
 * staged loops C2 vectorises), and without it and with {@code -XX:-UseSuperWord} to show what C2's vectorisation gives.
 */
public final class LocalReduceBench {

    /** One measured point: medians over the samples. */
    public record Row(ElementType type, PredefinedOperator op, long bytes, double copyGbs, double reduceGbs,
                      double ratio) {
        public String line() {
            return String.format(Locale.ROOT, "LOCALREDUCE type=%s op=%s bytes=%d copy_gbs=%.3f reduce_gbs=%.3f"
                            + " ratio=%.3f reduce_gelems=%.3f vector_api=%b", type.name().toLowerCase(Locale.ROOT),
                    op.id(), bytes, copyGbs, reduceGbs, ratio, reduceGbs / type.sizeBytes(), Combiners.vectorApi());
        }
    }

    private LocalReduceBench() {
    }

    public static void main(String[] args) {
        List<ElementType> types = List.of(ElementType.INT, ElementType.LONG, ElementType.FLOAT, ElementType.DOUBLE);
        PredefinedOperator op = PredefinedOperator.SUM;
        long[] sizes = {8192, 131072, 4194304, 67108864};
        int samples = 9;
        long sampleMs = 40;
        long warmupMs = 1500;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("arguments are key=value, got '" + arg + "'");
            }
            String key = arg.substring(0, eq);
            String value = arg.substring(eq + 1);
            switch (key) {
                case "types" -> types = Arrays.stream(value.split(","))
                        .map(t -> ElementType.valueOf(t.strip().toUpperCase(Locale.ROOT))).toList();
                case "op" -> op = PredefinedOperator.valueOf(value.strip().toUpperCase(Locale.ROOT));
                case "sizes" -> sizes = Arrays.stream(value.split(",")).mapToLong(s -> Long.parseLong(s.strip())).toArray();
                case "samples" -> samples = Integer.parseInt(value);
                case "sample-ms" -> sampleMs = Long.parseLong(value);
                case "warmup-ms" -> warmupMs = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown argument '" + key
                        + "' (types, op, sizes, samples, sample-ms, warmup-ms)");
            }
        }
        for (Row row : run(types, op, sizes, samples, sampleMs, warmupMs)) {
            System.out.println(row.line());
        }
    }

    public static List<Row> run(List<ElementType> types, PredefinedOperator op, long[] sizes, int samples,
                                long sampleMs, long warmupMs) {
        if (samples < 1 || sampleMs < 1) {
            throw new IllegalArgumentException("samples and sample-ms must be >= 1");
        }
        long largest = Arrays.stream(sizes).max().orElse(0);
        List<Row> rows = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(Math.max(largest, 64), 64);
            MemorySegment out = arena.allocate(Math.max(largest, 64), 64);
            for (ElementType type : types) {
                fill(in, type);
                fill(out, type);
                Combiner combiner = Combiners.of(type, op);
                warmUp(in, out, type, combiner, warmupMs);
                for (long bytes : sizes) {
                    rows.add(measure(in, out, type, op, combiner, bytes, samples, sampleMs));
                }
            }
        }
        return rows;
    }

    /** Small positive values: repeated sums neither overflow floating point nor reach subnormals. */
    private static void fill(MemorySegment s, ElementType type) {
        for (long i = 0; i + type.sizeBytes() <= s.byteSize(); i += type.sizeBytes()) {
            switch (type) {
                case FLOAT -> s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i, 1.0f);
                case DOUBLE -> s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, 1.0);
                default -> s.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
            }
        }
    }

    /** Runs both loops on a first-level-cache-sized vector until C2 has compiled them. */
    private static void warmUp(MemorySegment in, MemorySegment out, ElementType type, Combiner combiner, long warmupMs) {
        long bytes = Math.min(8192, in.byteSize());
        long count = bytes / type.sizeBytes();
        long end = System.nanoTime() + warmupMs * 1_000_000;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                MemorySegment.copy(in, 0, out, 0, bytes);
                combiner.combine(in, 0, out, 0, count);
            }
        }
    }

    private static Row measure(MemorySegment in, MemorySegment out, ElementType type, PredefinedOperator op,
                               Combiner combiner, long bytes, int samples, long sampleMs) {
        long count = bytes / type.sizeBytes();
        long vectorBytes = count * type.sizeBytes();
        // Calls per batch: about sampleMs at a first guess of 10 GB/s, at least one.
        long calls = Math.max(1, sampleMs * 10_000_000L / Math.max(vectorBytes, 1));
        double[] copy = new double[samples];
        double[] reduce = new double[samples];
        double[] ratio = new double[samples];
        for (int s = 0; s < samples; s++) {
            long t0 = System.nanoTime();
            for (long c = 0; c < calls; c++) {
                MemorySegment.copy(in, 0, out, 0, vectorBytes);
            }
            long t1 = System.nanoTime();
            for (long c = 0; c < calls; c++) {
                combiner.combine(in, 0, out, 0, count);
            }
            long t2 = System.nanoTime();
            copy[s] = (double) vectorBytes * calls / Math.max(1, t1 - t0);
            reduce[s] = (double) vectorBytes * calls / Math.max(1, t2 - t1);
            ratio[s] = reduce[s] / copy[s];
        }
        return new Row(type, op, vectorBytes, median(copy), median(reduce), median(ratio));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
