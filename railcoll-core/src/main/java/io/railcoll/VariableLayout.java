package io.railcoll;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Where the blocks of one side of a v-variant call lie in the caller's buffer: block i is {@code lengths[i]} bytes at
 * {@code displs[i]} (MPI's counts and displacements, in bytes), or packed in rank order when the displacements are
 * null. The schedules work on packed buffers (decision 0085): a buffer whose blocks already lie packed is used as it
 * is, any other is packed into staging memory before the call or unpacked from it after. Checks its arguments with
 * messages naming the call; immutable once built.
 */
final class VariableLayout {
    private final String call;
    private final String what;
    private final long[] lengths;
    private final long[] displs;
    private final long packedBytes;
    private final boolean packed;

    /**
     * @param lengths block sizes in bytes, one per rank (checked non-negative by the counts already)
     * @param displs  displacements in bytes, one per rank, or null for packed
     * @throws IllegalArgumentException for displacements of the wrong length, negative ones, or blocks outside
     *                                  {@code bufferBytes}, or (receiving) overlapping blocks
     */
    VariableLayout(String call, String what, long[] lengths, long[] displs, long bufferBytes, boolean receiving) {
        this.call = call;
        this.what = what;
        this.lengths = lengths;
        long total = 0;
        for (long l : lengths) {
            total += l;
        }
        this.packedBytes = total;
        if (displs == null) {
            this.displs = null;
            this.packed = true;
            if (bufferBytes < total) {
                throw new IllegalArgumentException(call + ": " + what + " holds " + bufferBytes + " bytes but its blocks"
                        + " need " + total);
            }
            return;
        }
        if (displs.length != lengths.length) {
            throw new IllegalArgumentException(call + ": " + displs.length + " displacements for " + what + ", expected "
                    + lengths.length + " (one per rank)");
        }
        this.displs = displs.clone();
        boolean inOrder = true;
        long at = 0;
        for (int i = 0; i < lengths.length; i++) {
            long d = this.displs[i];
            if (d < 0 || d > bufferBytes || lengths[i] > bufferBytes - d) {
                throw new IllegalArgumentException(call + ": block " + i + " of " + what + " (" + lengths[i]
                        + " bytes at displacement " + d + ") lies outside its " + bufferBytes + " bytes");
            }
            inOrder &= lengths[i] == 0 || d == at;
            at += lengths[i];
        }
        this.packed = inOrder;
        if (receiving && !inOrder) {
            checkNoOverlap();
        }
    }

    /** Receive blocks that overlap would leave the bytes they share to whichever lands last (MPI forbids it). */
    private void checkNoOverlap() {
        Integer[] order = new Integer[lengths.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(displs[a], displs[b]));
        long end = 0;
        int endOf = -1;
        for (int i : order) {
            if (lengths[i] == 0) {
                continue;
            }
            if (displs[i] < end) {
                throw new IllegalArgumentException(call + ": blocks " + endOf + " and " + i + " of " + what
                        + " overlap (displacements " + displs[endOf] + " and " + displs[i] + ")");
            }
            end = displs[i] + lengths[i];
            endOf = i;
        }
    }

    /** Bytes of every block together: the packed buffer's size. */
    long packedBytes() {
        return packedBytes;
    }

    /** Whether the blocks already lie packed from offset 0 (nothing to stage, unless the memory itself needs it). */
    boolean packed() {
        return packed;
    }

    /** Copies the blocks from {@code buffer} into {@code staged}, packed. */
    void pack(MemorySegment buffer, MemorySegment staged) {
        long at = 0;
        for (int i = 0; i < lengths.length; i++) {
            MemorySegment.copy(buffer, displs == null ? at : displs[i], staged, at, lengths[i]);
            at += lengths[i];
        }
    }

    /** Copies the packed blocks of {@code staged} to their places in {@code buffer}. */
    void unpack(MemorySegment staged, MemorySegment buffer) {
        long at = 0;
        for (int i = 0; i < lengths.length; i++) {
            MemorySegment.copy(staged, at, buffer, displs == null ? at : displs[i], lengths[i]);
            at += lengths[i];
        }
    }

    /** Block i's place in the caller's buffer. */
    long displacement(int i) {
        if (displs != null) {
            return displs[i];
        }
        long at = 0;
        for (int j = 0; j < i; j++) {
            at += lengths[j];
        }
        return at;
    }
}
