package io.railcoll.reduce;

import java.lang.foreign.*;
import java.lang.management.*;
import java.util.*;
import jdk.incubator.vector.*;

public class Exp {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static MemorySegment in, out;
    interface Body { void run(long calls); }

    static double time(Body b, long calls) {
        long c0 = T.getCurrentThreadCpuTime();
        b.run(calls);
        return (double) (T.getCurrentThreadCpuTime() - c0) / calls;
    }

    // kernel variant: int index
    static void sumInt(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
        int step = S.vectorByteSize();
        int end = (int) (bytes - (bytes & (step - 1)));
        for (int i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(S, in, inOffset + i, java.nio.ByteOrder.LITTLE_ENDIAN);
            IntVector b = IntVector.fromMemorySegment(S, inout, inoutOffset + i, java.nio.ByteOrder.LITTLE_ENDIAN);
            a.add(b).intoMemorySegment(inout, inoutOffset + i, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
    }
    // sliced segments
    static void sumSlice(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
        MemorySegment x = in.asSlice(inOffset, bytes), y = inout.asSlice(inoutOffset, bytes);
        long step = S.vectorByteSize();
        long end = bytes - (bytes & (step - 1));
        for (long i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(S, x, i, java.nio.ByteOrder.LITTLE_ENDIAN);
            IntVector b = IntVector.fromMemorySegment(S, y, i, java.nio.ByteOrder.LITTLE_ENDIAN);
            a.add(b).intoMemorySegment(y, i, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
    }

    static void sumSliceInt(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long bytes) {
        VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
        MemorySegment x = in.asSlice(inOffset, bytes), y = inout.asSlice(inoutOffset, bytes);
        int step = S.vectorByteSize();
        int end = (int) (bytes - (bytes & (step - 1)));
        for (int i = 0; i < end; i += step) {
            IntVector a = IntVector.fromMemorySegment(S, x, i, java.nio.ByteOrder.LITTLE_ENDIAN);
            IntVector b = IntVector.fromMemorySegment(S, y, i, java.nio.ByteOrder.LITTLE_ENDIAN);
            a.add(b).intoMemorySegment(y, i, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
    }
    static void full(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count) {
        if (count * 4 < 256 || !in.isNative() || !inout.isNative()) throw new IllegalStateException();
        Bounds.check(in, inOffset, inout, inoutOffset, count, 4);
        sumSlice(in, inOffset, inout, inoutOffset, count << 2);
    }
    static void fullSliceOnly(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count) {
        if (count * 4 < 256 || !in.isNative() || !inout.isNative() || inout.isReadOnly()) throw new IllegalStateException();
        sumSlice(in, inOffset, inout, inoutOffset, count << 2);
    }
    public static void main(String[] args) {
        long bytes = Long.parseLong(args[0]);
        boolean mix = args.length > 1 && args[1].equals("mix");
        Arena arena = Arena.ofConfined();
        in = arena.allocate(1 << 20, 64); out = arena.allocate(1 << 20, 64);
        Combiner comb = Combiners.of(ElementType.INT, PredefinedOperator.SUM);
        Reduction red = Reduction.of(ElementType.INT, PredefinedOperator.SUM);
        long count = bytes / 4;
        if (mix) {
            for (ElementType t : new ElementType[]{ElementType.LONG, ElementType.FLOAT, ElementType.DOUBLE, ElementType.INT}) {
                Reduction r = Reduction.of(t, PredefinedOperator.SUM);
                for (int i = 0; i < 200000; i++) r.combineBytes(in, 0, out, 0, bytes);
                Reduction r2 = Reduction.of(t, PredefinedOperator.MAX);
                for (int i = 0; i < 200000; i++) r2.combineBytes(in, 0, out, 0, bytes);
            }
        }
        Map<String, Body> bodies = new LinkedHashMap<>();
        bodies.put("copy", n -> { for (long c = 0; c < n; c++) MemorySegment.copy(in, 0, out, 0, bytes); });
        bodies.put("combiner", n -> { for (long c = 0; c < n; c++) comb.combine(in, 0, out, 0, count); });
        bodies.put("reduction", n -> { for (long c = 0; c < n; c++) red.combineBytes(in, 0, out, 0, bytes); });
        bodies.put("kernel", n -> { for (long c = 0; c < n; c++) IntVectorKernels.sum(in, 0, out, 0, bytes); });
        bodies.put("intidx", n -> { for (long c = 0; c < n; c++) sumInt(in, 0, out, 0, bytes); });
        bodies.put("slice", n -> { for (long c = 0; c < n; c++) sumSlice(in, 0, out, 0, bytes); });
        bodies.put("sliceint", n -> { for (long c = 0; c < n; c++) sumSliceInt(in, 0, out, 0, bytes); });
        bodies.put("full", n -> { for (long c = 0; c < n; c++) full(in, 0, out, 0, count); });
        bodies.put("fullsl", n -> { for (long c = 0; c < n; c++) fullSliceOnly(in, 0, out, 0, count); });
        bodies.put("bounds", n -> { for (long c = 0; c < n; c++) Bounds.check(in, 0, out, 0, count, 4); });
        long calls = Math.max(1, 40_000_000L * 10 / Math.max(bytes, 64) / 10);
        for (int w = 0; w < 5; w++) for (Body b : bodies.values()) time(b, calls / 4);
        Map<String, List<Double>> res = new LinkedHashMap<>();
        for (int s = 0; s < 9; s++) for (var e : bodies.entrySet()) res.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(time(e.getValue(), calls));
        StringBuilder sb = new StringBuilder("bytes=" + bytes + (mix ? " mix" : "") + ":");
        com.sun.management.ThreadMXBean tm = (com.sun.management.ThreadMXBean) T;
        for (var e : bodies.entrySet()) { long a0 = tm.getCurrentThreadAllocatedBytes(); e.getValue().run(100000); long a1 = tm.getCurrentThreadAllocatedBytes(); if (a1 - a0 > 1000) sb.append(" ALLOC(" + e.getKey() + ")=" + (a1 - a0)); }
        for (var e : res.entrySet()) { List<Double> l = e.getValue(); Collections.sort(l); sb.append(String.format(" %s=%.1f", e.getKey(), l.get(l.size()/2))); }
        System.out.println(sb);
    }
}
