package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;

/** The one range check of a combine, done before any byte is written, so a bad call changes nothing. */
final class Bounds {

    private Bounds() {
    }

    static void check(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count, int size) {
        if (count < 0) {
            throw new IllegalArgumentException("negative element count " + count);
        }
        long bytes = Math.multiplyExact(count, (long) size);
        if (inOffset < 0 || inOffset > in.byteSize() - bytes) {
            throw new IndexOutOfBoundsException("combine reads " + bytes + " bytes at offset " + inOffset
                    + " of a " + in.byteSize() + "-byte segment");
        }
        if (inoutOffset < 0 || inoutOffset > inout.byteSize() - bytes) {
            throw new IndexOutOfBoundsException("combine writes " + bytes + " bytes at offset " + inoutOffset
                    + " of a " + inout.byteSize() + "-byte segment");
        }
        if (inout.isReadOnly() && bytes > 0) {
            throw new IllegalArgumentException("combine cannot write a read-only segment");
        }
    }
}
