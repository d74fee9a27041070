package mpi;

import java.lang.foreign.MemorySegment;

/**
 * One datatype's data in one call, as the bytes railcoll moves: {@code count} elements packed back to back. Where
 * the type is contiguous and the program's buffer is memory railcoll takes as it is (a direct buffer, a
 * {@code byte[]}, a heap {@code ByteBuffer}), railcoll reads and writes the program's buffer itself; otherwise the
 * elements are packed into the call's staging memory before a send and unpacked from it after a receive
 * (only the type map's bytes, so gaps keep their contents).
 */
final class Transfer {
    final Datatype type;
    private final Call call;

    Transfer(Datatype type, Call call) {
        this.type = type;
        this.call = call;
    }

    long bytes(long count) {
        return Math.multiplyExact(count, type.map.packedBytes);
    }

    UserBuffer buffer(Object buffer, long count, String role) throws MPIException {
        return UserBuffer.of(buffer, type, count, role, call);
    }

    private boolean direct(UserBuffer b) {
        return type.map.contiguous() && b.railcollCanUse();
    }

    private long origin(long firstElement) {
        return firstElement * type.map.extent();
    }

    /** The byte offset of element {@code element} in a buffer of this type. */
    long offsetOf(long element) {
        return origin(element);
    }

    /**
     * Whether elements of this type received straight into {@code b}'s memory are already where they belong: a
     * contiguous type over memory railcoll moves as it is, with nothing to convert back.
     */
    boolean landsInPlace(UserBuffer b) {
        return direct(b) && !b.needsCommit();
    }

    /** Whether {@link #send} hands railcoll {@code b}'s own memory, not a packed copy in staging. */
    boolean sendsInPlace(UserBuffer b) {
        return direct(b);
    }

    /** The packed bytes of elements {@code [first, first + count)} of {@code b}, to be sent (or reduced in place). */
    MemorySegment send(UserBuffer b, long first, long count) {
        if (direct(b)) {
            // no elements: their displacement does not matter, and may lie past the buffer (decision 0216, bug 3)
            return first == 0 || count == 0 ? b.leading(bytes(count)) : b.memory.asSlice(origin(first), bytes(count));
        }
        return sendCopy(b, first, count);
    }

    /** As {@link #send}, always a copy in staging memory: for a block that also lies in the receive buffer. */
    MemorySegment sendCopy(UserBuffer b, long first, long count) {
        MemorySegment s = call.staging.take(bytes(count));
        packTo(b, first, count, s);
        return s;
    }

    /** Packs elements {@code [first, first + count)} of {@code b} to the start of {@code to}. */
    void packTo(UserBuffer b, long first, long count, MemorySegment to) {
        type.map.pack(b.memory, origin(first), count, to, 0);
    }

    /** Where {@code count} elements are received for {@code b}: its own memory, or staging to unpack from. */
    MemorySegment recvArea(UserBuffer b, long count) {
        if (direct(b)) {
            return b.leading(bytes(count));
        }
        return call.staging.take(bytes(count));
    }

    /**
     * Where {@code count} elements are received for element {@code first} of {@code b}: that place in its own memory
     * (so {@link #deliver} has nothing to copy), or staging to unpack from.
     */
    MemorySegment recvArea(UserBuffer b, long first, long count) {
        if (direct(b)) {
            return count == 0 ? b.leading(0) : b.memory.asSlice(origin(first), bytes(count));
        }
        return call.staging.take(bytes(count));
    }

    /**
     * The work a non-blocking call leaves for when it finishes: {@link #deliver}, or nothing where the elements are
     * received where they belong (a direct buffer of a contiguous type), so such a call makes no lambda.
     */
    Operation.Finish delivery(MemorySegment bytes, UserBuffer b, long first, long count) {
        if (inPlace(bytes, b, first)) {
            return Operation.Finish.NOTHING;
        }
        return () -> deliver(bytes, b, first, count);
    }

    /**
     * Whether elements received into {@code bytes} are already element {@code first} of {@code b}: nothing to
     * deliver.
     */
    boolean inPlace(MemorySegment bytes, UserBuffer b, long first) {
        return b.startsAt(bytes, origin(first)) && !b.needsCommit();
    }

    /**
     * Puts {@code count} elements received into staging memory {@code staged} (never the program's buffer) at byte
     * {@code offset} at element {@code first} of {@code b}, with no slice per block.
     */
    void deliverStaged(MemorySegment staged, long offset, UserBuffer b, long first, long count) {
        type.map.unpack(staged, offset, count, b.memory, origin(first));
        b.commit();
    }

    /**
     * Puts a received message of {@code received} bytes from {@code bytes} at element 0 of {@code b}: its whole
     * elements, then the leaves of the element it ends inside (a point-to-point message shorter than the receive).
     */
    void deliverMessage(MemorySegment bytes, UserBuffer b, long received) {
        long packed = type.map.packedBytes;
        long elements = packed == 0 ? 0 : received / packed;
        long rest = packed == 0 ? 0 : received % packed;
        if (rest > 0 && !b.startsAt(bytes, 0)) {
            type.map.unpackLeading(bytes, elements * packed, rest, b.memory, origin(elements));
        }
        deliver(bytes, b, 0, elements);
    }

    /** Puts {@code count} received elements from {@code bytes} at element {@code first} of {@code b}. */
    void deliver(MemorySegment bytes, UserBuffer b, long first, long count) {
        long at = origin(first);
        if (!b.startsAt(bytes, at)) {
            type.map.unpack(bytes, 0, count, b.memory, at);
        }
        b.commit();
    }
}
