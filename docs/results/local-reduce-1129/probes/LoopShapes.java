import java.lang.foreign.*;
import java.util.*;
import static java.lang.foreign.ValueLayout.*;

/** Throw-away probe (not committed): loop shapes C2 (JDK 25) may vectorise for the staged (no-module) path. */
public class LoopShapes {
    static final int CHUNK = 1024;
    static final int[] ai = new int[CHUNK];
    static final float[] af = new float[CHUNK], bf = new float[CHUNK + 8];
    static final double[] ad = new double[CHUNK], bd = new double[CHUNK + 8];
    static final float[] hf = new float[CHUNK + 8];

    // current staged int: stage in, loop array + segment (unaligned layout)
    static void intStaged(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_INT_UNALIGNED, done * 4, ai, 0, k);
            long off = done * 4;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 4; io.set(JAVA_INT_UNALIGNED, at, ai[i] + io.get(JAVA_INT_UNALIGNED, at)); }
            done += k;
        }
    }
    // control: int loop over two segments
    static void intTwoSegments(MemorySegment in, MemorySegment io, long n) {
        for (long i = 0; i < n; i++) { long at = i * 4; io.set(JAVA_INT_UNALIGNED, at, in.get(JAVA_INT_UNALIGNED, at) + io.get(JAVA_INT_UNALIGNED, at)); }
    }
    // current staged float: stage both, array loop, copy back
    static void floatStaged(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, done * 4, af, 0, k);
            MemorySegment.copy(io, JAVA_FLOAT_UNALIGNED, done * 4, bf, 0, k);
            for (int i = 0; i < k; i++) bf[i] = af[i] + bf[i];
            MemorySegment.copy(bf, 0, io, JAVA_FLOAT_UNALIGNED, done * 4, k);
            done += k;
        }
    }
    // float: stage in only, loop array + segment with the ALIGNED layout (Unsafe.getFloat, no int->float move)
    static void floatAlignedLayout(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, done * 4, af, 0, k);
            long off = done * 4;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 4; io.set(JAVA_FLOAT, at, af[i] + io.get(JAVA_FLOAT, at)); }
            done += k;
        }
    }
    // float: stage in only, loop array + segment, unaligned layout (what 0045 saw not vectorised)
    static void floatUnalignedLayout(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, done * 4, af, 0, k);
            long off = done * 4;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 4; io.set(JAVA_FLOAT_UNALIGNED, at, af[i] + io.get(JAVA_FLOAT_UNALIGNED, at)); }
            done += k;
        }
    }
    // float: read inout as int bits, add as float, store as int bits
    static void floatViaIntBits(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, done * 4, af, 0, k);
            long off = done * 4;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 4;
                io.set(JAVA_INT_UNALIGNED, at, Float.floatToRawIntBits(af[i] + Float.intBitsToFloat(io.get(JAVA_INT_UNALIGNED, at)))); }
            done += k;
        }
    }
    // float: two heap arrays at unaligned offsets (1 and 3 elements in), stage both, copy back
    static void floatArraysUnalignedOffsets(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_FLOAT_UNALIGNED, done * 4, hf, 1, k);
            MemorySegment.copy(io, JAVA_FLOAT_UNALIGNED, done * 4, bf, 3, k);
            for (int i = 0; i < k; i++) bf[3 + i] = hf[1 + i] + bf[3 + i];
            MemorySegment.copy(bf, 3, io, JAVA_FLOAT_UNALIGNED, done * 4, k);
            done += k;
        }
    }
    static void doubleStaged(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_DOUBLE_UNALIGNED, done * 8, ad, 0, k);
            MemorySegment.copy(io, JAVA_DOUBLE_UNALIGNED, done * 8, bd, 0, k);
            for (int i = 0; i < k; i++) bd[i] = ad[i] + bd[i];
            MemorySegment.copy(bd, 0, io, JAVA_DOUBLE_UNALIGNED, done * 8, k);
            done += k;
        }
    }
    static void doubleAlignedLayout(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_DOUBLE_UNALIGNED, done * 8, ad, 0, k);
            long off = done * 8;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 8; io.set(JAVA_DOUBLE, at, ad[i] + io.get(JAVA_DOUBLE, at)); }
            done += k;
        }
    }
    static void doubleViaLongBits(MemorySegment in, MemorySegment io, long n) {
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            MemorySegment.copy(in, JAVA_DOUBLE_UNALIGNED, done * 8, ad, 0, k);
            long off = done * 8;
            for (int i = 0; i < k; i++) { long at = off + (long) i * 8;
                io.set(JAVA_LONG_UNALIGNED, at, Double.doubleToRawLongBits(ad[i] + Double.longBitsToDouble(io.get(JAVA_LONG_UNALIGNED, at)))); }
            done += k;
        }
    }

    interface V { void run(MemorySegment in, MemorySegment io, long bytes); }

    public static void main(String[] args) {
        long[] sizes = Arrays.stream(args.length > 0 ? args[0].split(",") : new String[]{"8192", "131072"}).mapToLong(Long::parseLong).toArray();
        String only = args.length > 1 ? args[1] : "";
        Map<String, V> vs = new LinkedHashMap<>();
        vs.put("int-staged", (a, b, n) -> intStaged(a, b, n / 4));
        vs.put("int-two-segments", (a, b, n) -> intTwoSegments(a, b, n / 4));
        vs.put("float-staged", (a, b, n) -> floatStaged(a, b, n / 4));
        vs.put("float-aligned-layout", (a, b, n) -> floatAlignedLayout(a, b, n / 4));
        vs.put("float-unaligned-layout", (a, b, n) -> floatUnalignedLayout(a, b, n / 4));
        vs.put("float-via-int-bits", (a, b, n) -> floatViaIntBits(a, b, n / 4));
        vs.put("float-arrays-unaligned-offsets", (a, b, n) -> floatArraysUnalignedOffsets(a, b, n / 4));
        vs.put("double-staged", (a, b, n) -> doubleStaged(a, b, n / 8));
        vs.put("double-aligned-layout", (a, b, n) -> doubleAlignedLayout(a, b, n / 8));
        vs.put("double-via-long-bits", (a, b, n) -> doubleViaLongBits(a, b, n / 8));
        long largest = Arrays.stream(sizes).max().getAsLong();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(largest, 64), io = arena.allocate(largest, 64);
            for (var e : vs.entrySet()) {
                if (!only.isEmpty() && !e.getKey().matches(only)) continue;
                for (long i = 0; i < largest / 4; i++) { in.setAtIndex(JAVA_FLOAT, i, 1f); io.setAtIndex(JAVA_FLOAT, i, 1f); }
                V v = e.getValue();
                long end = System.nanoTime() + 1500_000_000L;
                while (System.nanoTime() < end) for (int i = 0; i < 1000; i++) { MemorySegment.copy(in, 0, io, 0, 8192); v.run(in, io, 8192); }
                for (long bytes : sizes) {
                    long calls = Math.max(1, 40_000_000_000L / 1000 / Math.max(bytes, 1) * 10);
                    double[] ratio = new double[7], red = new double[7];
                    for (int s = 0; s < 7; s++) {
                        long t0 = System.nanoTime();
                        for (long c = 0; c < calls; c++) MemorySegment.copy(in, 0, io, 0, bytes);
                        long t1 = System.nanoTime();
                        for (long c = 0; c < calls; c++) v.run(in, io, bytes);
                        long t2 = System.nanoTime();
                        red[s] = (double) bytes * calls / (t2 - t1);
                        ratio[s] = (double) (t1 - t0) / (t2 - t1);
                    }
                    Arrays.sort(ratio); Arrays.sort(red);
                    System.out.printf(Locale.ROOT, "SHAPE %-32s bytes=%-9d reduce_gbs=%7.2f ratio=%.3f%n", e.getKey(), bytes, red[3], ratio[3]);
                }
            }
        }
    }
}
