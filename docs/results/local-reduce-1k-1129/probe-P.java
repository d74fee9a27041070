import jdk.incubator.vector.*;
import java.lang.foreign.*;
import java.lang.management.*;
import java.nio.ByteOrder;
import static java.lang.foreign.ValueLayout.*;

public class P {
    static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
    static final ByteOrder O = ByteOrder.nativeOrder();
    static void vec(MemorySegment in, long io, MemorySegment inout, long oo, long bytes) {
        long step = S.vectorByteSize();
        long end = bytes - bytes % step;
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(S, in, io + i, O);
            IntVector b = IntVector.fromMemorySegment(S, inout, oo + i, O);
            a.add(b).intoMemorySegment(inout, oo + i, O);
        }
        for (long i = end; i < bytes; i += 4) {
            inout.set(JAVA_INT_UNALIGNED, oo + i, in.get(JAVA_INT_UNALIGNED, io + i) + inout.get(JAVA_INT_UNALIGNED, oo + i));
        }
    }
    static void vec2(MemorySegment in, long io, MemorySegment inout, long oo, long bytes) {
        long step = S.vectorByteSize();
        long end2 = bytes - bytes % (2 * step);
        long i = 0;
        for (; i < end2; i += 2 * step) {
            IntVector a = IntVector.fromMemorySegment(S, in, io + i, O);
            IntVector b = IntVector.fromMemorySegment(S, inout, oo + i, O);
            IntVector c = IntVector.fromMemorySegment(S, in, io + i + step, O);
            IntVector d = IntVector.fromMemorySegment(S, inout, oo + i + step, O);
            a.add(b).intoMemorySegment(inout, oo + i, O);
            c.add(d).intoMemorySegment(inout, oo + i + step, O);
        }
        long end = bytes - bytes % step;
        for (; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(S, in, io + i, O);
            IntVector b = IntVector.fromMemorySegment(S, inout, oo + i, O);
            a.add(b).intoMemorySegment(inout, oo + i, O);
        }
        for (; i < bytes; i += 4) {
            inout.set(JAVA_INT_UNALIGNED, oo + i, in.get(JAVA_INT_UNALIGNED, io + i) + inout.get(JAVA_INT_UNALIGNED, oo + i));
        }
    }
    static void scalar(MemorySegment in, long io, MemorySegment inout, long oo, long bytes) {
        for (long i = 0; i < bytes; i += 4) {
            inout.set(JAVA_INT_UNALIGNED, oo + i, in.get(JAVA_INT_UNALIGNED, io + i) + inout.get(JAVA_INT_UNALIGNED, oo + i));
        }
    }
    static void scalarIdx(MemorySegment in, long io, MemorySegment inout, long oo, long bytes) {
        MemorySegment a = in.asSlice(io, bytes), b = inout.asSlice(oo, bytes);
        int n = (int) (bytes >>> 2);
        for (int i = 0; i < n; i++) {
            b.setAtIndex(JAVA_INT_UNALIGNED, i, a.getAtIndex(JAVA_INT_UNALIGNED, i) + b.getAtIndex(JAVA_INT_UNALIGNED, i));
        }
    }
    interface K { void run(MemorySegment in, long io, MemorySegment inout, long oo, long bytes); }
    static long cpu() { return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime(); }
    public static void main(String[] args) {
        long bytes = Long.parseLong(args[0]);
        String which = args[1];
        Arena arena = Arena.ofShared();
        MemorySegment in = arena.allocate(bytes + 64, 64), out = arena.allocate(bytes + 64, 64);
        for (long i = 0; i + 4 <= bytes; i += 4) in.set(JAVA_INT_UNALIGNED, i, (int) i);
        int reps = (int) Math.max(1000, 200_000_000L / Math.max(bytes, 64));
        double best = 1e9;
        for (int round = 0; round < 30; round++) {
            long c0 = cpu();
            switch (which) {
                case "product" -> { var red = io.railcoll.reduce.Reduction.of(io.railcoll.reduce.ElementType.INT, io.railcoll.reduce.PredefinedOperator.SUM); for (int r = 0; r < reps; r++) red.combineBytes(in, 0, out, 0, bytes); }
                case "copy" -> { for (int r = 0; r < reps; r++) MemorySegment.copy(in, 0, out, 0, bytes); }
                case "vec" -> { for (int r = 0; r < reps; r++) vec(in, 0, out, 0, bytes); }
                case "vec2" -> { for (int r = 0; r < reps; r++) vec2(in, 0, out, 0, bytes); }
                case "scalar" -> { for (int r = 0; r < reps; r++) scalar(in, 0, out, 0, bytes); }
                case "scalarIdx" -> { for (int r = 0; r < reps; r++) scalarIdx(in, 0, out, 0, bytes); }
            }
            double ns = (cpu() - c0) / (double) reps;
            if (round >= 10) best = Math.min(best, ns);
        }
        System.out.printf("%s %d B: best %.1f ns/call  %.1f GB/s%n", which, bytes, best, bytes / best);
    }
}
