package io.railcoll.bench;

import io.railcoll.reduce.Combiners;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.Reduction;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Local reduction speed against a plain copy in the same run (issue 22: the combining loops must run at memory
 * speed). For each element type and vector size it times, in alternation, {@code MemorySegment.copy(in, 0, out, 0,
 * bytes)} and {@code Reduction.of(type, op).combineBytes(in, 0, out, 0, bytes)} over the same two 64-byte-aligned
 * native segments, so both see the same caches and the same load. Each is the call the engine makes for its step (a
 * copy step, a {@code Reduce} step), so the reduction pays what a rank pays per call, its byte-to-element check
 * included (decision 0241; before, the bench called the {@code Combiner} itself and left that out). A sample is a
 * batch of copies and a batch of combines, each lasting about
 * {@code sample-ms}, copy first in even samples and reduce first in odd ones. Each batch is timed twice: by the wall
 * clock and by the thread's CPU time, which leaves out the time the thread spent descheduled (on a host shared with
 * other work, most of what moves a wall-clock batch at 1-8 KiB; decision 0236). The figures are the medians over
 * samples of copy GB/s, reduce GB/s and the per-sample ratio reduce/copy (paired, so a burst of load from other
 * processes hits both sides of one ratio), and of the CPU nanoseconds per call of each and their ratio. GB/s counts
 * the vector's bytes once: a copy reads and writes them, a reduction reads two vectors and writes one. The timed
 * batches themselves are the warm-up, at every size, so C2 compiles the loops that are timed.
 *
 * <p>The element types are measured one after the other in this JVM. Where more than one is asked for, the later ones
 * run through call sites that have seen the earlier ones' combiners (megamorphic, as in a rank that reduces several
 * pairs), and the first one through sites that have seen only its own: {@code bin/railcoll bench --collective
 * local-reduce} therefore starts a JVM per type (decision 0236).
 *
 * <p>One line per (type, size) on standard output:
 * <pre>
 * LOCALREDUCE type=int op=sum bytes=8192 copy_gbs=... reduce_gbs=... ratio=... reduce_gelems=... copy_cpu_ns=...
 *     reduce_cpu_ns=... cpu_ratio=... vector_api=true
 * </pre>
 * Arguments (key=value): types (default int,long,float,double), op (default sum), sizes in bytes (default
 * 8192,131072,4194304,67108864: first-level cache, second-level cache, last-level cache, memory on this host),
 * samples (default 9), sample-ms (default 40), warmup-ms (default 1500). {@code bin/railcoll bench --collective
 * local-reduce} runs it for each type in three JVMs: with the Vector API's module (the combiners of decision 0210),
 * without it (the staged loops C2 vectorises), and without it and with {@code -XX:-UseSuperWord} to show what C2's
 * vectorisation gives.
 */
public final class LocalReduceBench {

    /**
     * One measured point: medians over the samples of the wall-clock figures (GB/s and their ratio) and of the
     * thread-CPU-time ones (nanoseconds per call and their ratio, copy over reduce).
     */
    public record Row(ElementType type, PredefinedOperator op, long bytes, double copyGbs, double reduceGbs,
                      double ratio, double copyCpuNs, double reduceCpuNs, double cpuRatio) {
        public String line() {
            return String.format(Locale.ROOT, "LOCALREDUCE type=%s op=%s bytes=%d copy_gbs=%.3f reduce_gbs=%.3f"
                            + " ratio=%.3f reduce_gelems=%.3f copy_cpu_ns=%.1f reduce_cpu_ns=%.1f cpu_ratio=%.3f"
                            + " vector_api=%b", type.name().toLowerCase(Locale.ROOT), op.id(), bytes, copyGbs,
                    reduceGbs, ratio, reduceGbs / type.sizeBytes(), copyCpuNs, reduceCpuNs, cpuRatio,
                    Combiners.vectorApi());
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Whether this JVM gives a thread CPU clock; without one the CPU figures are NaN (not 0). */
    private static final boolean CPU_CLOCK = THREADS.isCurrentThreadCpuTimeSupported()
            && THREADS.isThreadCpuTimeEnabled();

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
                Reduction reduction = Reduction.of(type, op);
                warmUp(in, out, type, reduction, sizes, sampleMs, warmupMs);
                for (long bytes : sizes) {
                    rows.add(measure(in, out, type, op, reduction, bytes, samples, sampleMs));
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

    /**
     * Runs the timed batches themselves, at every size in turn, until {@code warmupMs} has passed, so that C2 has
     * compiled the very loops that are timed (a separate warm-up loop would leave them to on-stack replacement in the
     * first samples) with the sizes they will see, and copy and reduce get the same treatment.
     */
    private static void warmUp(MemorySegment in, MemorySegment out, ElementType type, Reduction reduction, long[] sizes,
                               long sampleMs, long warmupMs) {
        long end = System.nanoTime() + warmupMs * 1_000_000;
        long[] times = new long[4];
        boolean copyFirst = true;
        while (System.nanoTime() < end) {
            for (long bytes : sizes) {
                long count = bytes / type.sizeBytes();
                sample(in, out, reduction, count * type.sizeBytes(), calls(count * type.sizeBytes(),
                        Math.min(sampleMs, 10)), copyFirst, times);
                copyFirst = !copyFirst;
            }
        }
    }

    /** Calls per batch: about {@code sampleMs} at a first guess of 10 GB/s, at least one. */
    private static long calls(long vectorBytes, long sampleMs) {
        return Math.max(1, sampleMs * 10_000_000L / Math.max(vectorBytes, 1));
    }

    private static Row measure(MemorySegment in, MemorySegment out, ElementType type, PredefinedOperator op,
                               Reduction reduction, long bytes, int samples, long sampleMs) {
        long count = bytes / type.sizeBytes();
        long vectorBytes = count * type.sizeBytes();
        long calls = calls(vectorBytes, sampleMs);
        double[] copy = new double[samples];
        double[] reduce = new double[samples];
        double[] ratio = new double[samples];
        double[] copyCpuNs = new double[samples];
        double[] reduceCpuNs = new double[samples];
        double[] cpuRatio = new double[samples];
        long[] times = new long[4];
        for (int s = 0; s < samples; s++) {
            sample(in, out, reduction, vectorBytes, calls, s % 2 == 0, times);
            copy[s] = (double) vectorBytes * calls / Math.max(1, times[0]);
            reduce[s] = (double) vectorBytes * calls / Math.max(1, times[1]);
            ratio[s] = reduce[s] / copy[s];
            copyCpuNs[s] = CPU_CLOCK ? (double) times[2] / calls : Double.NaN;
            reduceCpuNs[s] = CPU_CLOCK ? (double) times[3] / calls : Double.NaN;
            cpuRatio[s] = CPU_CLOCK ? (double) Math.max(1, times[2]) / Math.max(1, times[3]) : Double.NaN;
        }
        return new Row(type, op, vectorBytes, median(copy), median(reduce), median(ratio), median(copyCpuNs),
                median(reduceCpuNs), median(cpuRatio));
    }

    /**
     * One paired sample: a batch of {@code calls} copies and a batch of as many combines over the same two segments,
     * copy first or reduce first as told (the samples alternate, so neither side always finds the caches as the
     * other left them). {@code times} gets the copy's and the reduce's wall time, then their thread CPU time, in
     * nanoseconds: the CPU clock leaves out the time this thread spent descheduled, which on a host shared with
     * other work is most of what moves a wall-clock batch.
     */
    private static void sample(MemorySegment in, MemorySegment out, Reduction reduction, long vectorBytes, long calls,
                               boolean copyFirst, long[] times) {
        if (copyFirst) {
            copyBatch(in, out, vectorBytes, calls, times, 0);
            reduceBatch(in, out, reduction, vectorBytes, calls, times, 1);
        } else {
            reduceBatch(in, out, reduction, vectorBytes, calls, times, 1);
            copyBatch(in, out, vectorBytes, calls, times, 0);
        }
    }

    private static void copyBatch(MemorySegment in, MemorySegment out, long vectorBytes, long calls, long[] times,
                                  int slot) {
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (long c = 0; c < calls; c++) {
            MemorySegment.copy(in, 0, out, 0, vectorBytes);
        }
        long t1 = System.nanoTime();
        long c1 = THREADS.getCurrentThreadCpuTime();
        times[slot] = t1 - t0;
        times[slot + 2] = c1 - c0;
    }

    private static void reduceBatch(MemorySegment in, MemorySegment out, Reduction reduction, long vectorBytes,
                                    long calls, long[] times, int slot) {
        long c0 = THREADS.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (long c = 0; c < calls; c++) {
            reduction.combineBytes(in, 0, out, 0, vectorBytes);
        }
        long t1 = System.nanoTime();
        long c1 = THREADS.getCurrentThreadCpuTime();
        times[slot] = t1 - t0;
        times[slot + 2] = c1 - c0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
