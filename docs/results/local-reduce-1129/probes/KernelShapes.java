import io.railcoll.reduce.Combiner;
import io.railcoll.reduce.Combiners;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import jdk.incubator.vector.*;
import java.lang.foreign.*;
import java.nio.ByteOrder;
import java.util.*;

/** Throw-away probe (not committed): where the Vector API combiner's per-call time goes against bare kernels. */
public class KernelShapes {
    static final java.lang.management.ThreadMXBean T = java.lang.management.ManagementFactory.getThreadMXBean();
    static long now() { return CPU ? T.getCurrentThreadCpuTime() : System.nanoTime(); }
    static final boolean CPU = Boolean.getBoolean("cpu");
    static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Integer> I256 = IntVector.SPECIES_256;
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    static final ByteOrder O = ByteOrder.nativeOrder();

    static void intCurrent(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes) {
        long step = I.vectorByteSize(); long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(I, in, ino + i, O);
            IntVector b = IntVector.fromMemorySegment(I, io, ioo + i, O);
            a.add(b).intoMemorySegment(io, ioo + i, O);
        }
    }
    static void int256(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes) {
        long step = I256.vectorByteSize(); long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(I256, in, ino + i, O);
            IntVector b = IntVector.fromMemorySegment(I256, io, ioo + i, O);
            a.add(b).intoMemorySegment(io, ioo + i, O);
        }
    }
    static void intUnroll4(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes) {
        long step = I.vectorByteSize(); long end4 = bytes - bytes % (4 * step); long end = bytes - bytes % step;
        long i = 0;
        for (; i < end4; i += 4 * step) {
            IntVector a0 = IntVector.fromMemorySegment(I, in, ino + i, O);
            IntVector a1 = IntVector.fromMemorySegment(I, in, ino + i + step, O);
            IntVector a2 = IntVector.fromMemorySegment(I, in, ino + i + 2 * step, O);
            IntVector a3 = IntVector.fromMemorySegment(I, in, ino + i + 3 * step, O);
            IntVector b0 = IntVector.fromMemorySegment(I, io, ioo + i, O);
            IntVector b1 = IntVector.fromMemorySegment(I, io, ioo + i + step, O);
            IntVector b2 = IntVector.fromMemorySegment(I, io, ioo + i + 2 * step, O);
            IntVector b3 = IntVector.fromMemorySegment(I, io, ioo + i + 3 * step, O);
            a0.add(b0).intoMemorySegment(io, ioo + i, O);
            a1.add(b1).intoMemorySegment(io, ioo + i + step, O);
            a2.add(b2).intoMemorySegment(io, ioo + i + 2 * step, O);
            a3.add(b3).intoMemorySegment(io, ioo + i + 3 * step, O);
        }
        for (; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(I, in, ino + i, O);
            IntVector b = IntVector.fromMemorySegment(I, io, ioo + i, O);
            a.add(b).intoMemorySegment(io, ioo + i, O);
        }
    }
    /** The loop over slices starting at 0, int index (slices allocate unless escape analysis removes them). */
    static void intSliced(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes) {
        MemorySegment a = in.asSlice(ino, bytes), b = io.asSlice(ioo, bytes);
        int step = I.vectorByteSize(); int end = (int) (bytes - bytes % step);
        for (int i = 0; i < end; i += step) {
            IntVector.fromMemorySegment(I, a, i, O).add(IntVector.fromMemorySegment(I, b, i, O)).intoMemorySegment(b, i, O);
        }
    }
    static void doubleCurrent(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes) {
        long step = D.vectorByteSize(); long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            DoubleVector a = DoubleVector.fromMemorySegment(D, in, ino + i, O);
            DoubleVector b = DoubleVector.fromMemorySegment(D, io, ioo + i, O);
            a.add(b).intoMemorySegment(io, ioo + i, O);
        }
    }

    interface K { void run(MemorySegment in, long ino, MemorySegment io, long ioo, long bytes); }

    public static void main(String[] args) {
        long[] sizes = Arrays.stream(args.length > 0 ? args[0].split(",") : new String[]{"1024", "8192", "131072"}).mapToLong(Long::parseLong).toArray();
        String only = args.length > 1 ? args[1] : "";
        Map<String, K> ks = new LinkedHashMap<>();
        Combiner ci = Combiners.of(ElementType.INT, PredefinedOperator.SUM);
        Combiner cd = Combiners.of(ElementType.DOUBLE, PredefinedOperator.SUM);
        Combiner cl = Combiners.of(ElementType.LONG, PredefinedOperator.SUM);
        Combiner cf = Combiners.of(ElementType.FLOAT, PredefinedOperator.SUM);
        ks.put("int-combiner", (a, x, b, y, n) -> ci.combine(a, x, b, y, n / 4));
        ks.put("int-kernel-current", KernelShapes::intCurrent);
        ks.put("int-kernel-256", KernelShapes::int256);
        ks.put("int-kernel-unroll4", KernelShapes::intUnroll4);
        ks.put("int-kernel-sliced", KernelShapes::intSliced);
        ks.put("double-combiner", (a, x, b, y, n) -> cd.combine(a, x, b, y, n / 8));
        ks.put("double-kernel-current", KernelShapes::doubleCurrent);
        long largest = Arrays.stream(sizes).max().getAsLong();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(largest, 64), io = arena.allocate(largest, 64);
            in.fill((byte) 0); io.fill((byte) 0);
            // as in the bench: the combiner's inner call site sees four kernels (megamorphic)
            for (Combiner c : List.of(ci, cd, cl, cf)) for (int i = 0; i < 20000; i++) c.combine(in, 0, io, 0, 1024 / 8);
            for (var e : ks.entrySet()) {
                if (!only.isEmpty() && !e.getKey().matches(only)) continue;
                K k = e.getValue();
                long end = System.nanoTime() + 1500_000_000L;
                while (System.nanoTime() < end) for (int i = 0; i < 1000; i++) { MemorySegment.copy(in, 0, io, 0, 8192); k.run(in, 0, io, 0, 8192); }
                for (long bytes : sizes) {
                    long calls = Math.max(1, 400_000_000L / Math.max(bytes, 1));
                    double[] ratio = new double[11], ns = new double[11], cns = new double[11];
                    for (int s = 0; s < 11; s++) {
                        long t0 = now();
                        for (long c = 0; c < calls; c++) MemorySegment.copy(in, 0, io, 0, bytes);
                        long t1 = now();
                        for (long c = 0; c < calls; c++) k.run(in, 0, io, 0, bytes);
                        long t2 = now();
                        ns[s] = (double) (t2 - t1) / calls; cns[s] = (double) (t1 - t0) / calls;
                        ratio[s] = (double) (t1 - t0) / (t2 - t1);
                    }
                    Arrays.sort(ratio); Arrays.sort(ns); Arrays.sort(cns);
                    System.out.printf(Locale.ROOT, (CPU ? "KERNEL-CPU" : "KERNEL") + " %-24s bytes=%-7d copy_ns=%8.1f reduce_ns=%8.1f ratio=%.3f%n", e.getKey(), bytes, cns[5], ns[5], ratio[5]);
                }
            }
        }
    }
}
