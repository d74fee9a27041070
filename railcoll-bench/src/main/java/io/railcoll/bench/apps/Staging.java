package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Native copies of array-backed buffers for the collectives. A communicator takes native segments and heap segments
 * over {@code byte[]} only (the transports hand buffers to NIO as byte buffers, which other heap arrays cannot
 * back), while the apps keep their data in {@code double[]}, {@code int[]} and {@code long[]}; such buffers are
 * copied through a native staging segment. The copies are a memcpy per call, small next to the computation, and
 * {@link TimedCollectives} keeps them outside the communication time. Buffers grow as needed and are reused;
 * confined to one thread; memory is freed by the garbage collector (automatic arena).
 */
final class Staging {
    private MemorySegment sendBuffer = MemorySegment.NULL;
    private MemorySegment recvBuffer = MemorySegment.NULL;

    /** True when the transport can use {@code s} as it is. */
    static boolean direct(MemorySegment s) {
        return s.isNative() || s.heapBase().orElse(null) instanceof byte[];
    }

    /** {@code src} itself, or a native copy of it. */
    MemorySegment send(MemorySegment src) {
        if (direct(src)) {
            return src;
        }
        sendBuffer = grow(sendBuffer, src.byteSize());
        MemorySegment staged = sendBuffer.asSlice(0, src.byteSize());
        staged.copyFrom(src);
        return staged;
    }

    /** {@code dst} itself, or a native segment of its size to receive into; pass it to {@link #received} after the call. */
    MemorySegment recv(MemorySegment dst) {
        if (direct(dst)) {
            return dst;
        }
        recvBuffer = grow(recvBuffer, dst.byteSize());
        return recvBuffer.asSlice(0, dst.byteSize());
    }

    /** Copies what arrived in {@code staged} to {@code dst}, unless they are the same memory. */
    static void received(MemorySegment staged, MemorySegment dst) {
        if (staged != dst) {
            dst.copyFrom(staged);
        }
    }

    private static MemorySegment grow(MemorySegment current, long bytes) {
        if (current.byteSize() >= bytes) {
            return current;
        }
        return Arena.ofAuto().allocate(Math.max(bytes, 2 * current.byteSize()), 64);
    }

    /** An untimed all-gather of array-backed buffers (set-up and checks). */
    static void allgather(Communicator comm, MemorySegment send, MemorySegment recv) {
        Staging s = new Staging();
        MemorySegment r = s.recv(recv);
        comm.allgather(s.send(send), r);
        received(r, recv);
    }
}
