package io.railcoll.reduce;

/**
 * The element types a reduction combines, with their size in bytes. Elements are stored in the platform's native
 * byte order (every rank of a job runs on the same kind of machine), unaligned accesses allowed.
 *
 * <p>The four pair types carry a value and an {@code int} index for {@link PredefinedOperator#MINLOC} and
 * {@link PredefinedOperator#MAXLOC}, laid out as the C structs of MPI's {@code MPI_2INT}, {@code MPI_FLOAT_INT},
 * {@code MPI_LONG_INT} and {@code MPI_DOUBLE_INT} on a 64-bit machine, so that an array of them can be shared with
 * native code as is:
 * <pre>
 *   INT_INT     | int value  @0 | int index @4 |                  8 bytes
 *   FLOAT_INT   | float value @0 | int index @4 |                 8 bytes
 *   LONG_INT    | long value @0 (8) | int index @8 | 4 padding |  16 bytes
 *   DOUBLE_INT  | double value @0 (8) | int index @8 | 4 padding | 16 bytes
 * </pre>
 * An operator neither reads nor writes padding bytes, but the collectives move whole elements, so the padding of a
 * result holds some rank's padding, which one unspecified (MPI defines nothing there either; decision 0214, bug 3).
 * {@link #BOOLEAN} is one byte, zero for false and anything else true;
 * logical operators store 1 for true.
 */
public enum ElementType {
    BYTE(1, Kind.INTEGER),
    SHORT(2, Kind.INTEGER),
    /** An unsigned 16-bit integer (Java's {@code char}): arithmetic wraps modulo 2^16, comparisons are unsigned. */
    CHAR(2, Kind.INTEGER),
    INT(4, Kind.INTEGER),
    LONG(8, Kind.INTEGER),
    FLOAT(4, Kind.FLOATING),
    DOUBLE(8, Kind.FLOATING),
    BOOLEAN(1, Kind.LOGICAL),
    INT_INT(8, Kind.PAIR),
    FLOAT_INT(8, Kind.PAIR),
    LONG_INT(16, Kind.PAIR),
    DOUBLE_INT(16, Kind.PAIR);

    /** What an operator may require of a type. */
    public enum Kind {
        /** Two's-complement integers (and the unsigned CHAR): arithmetic, comparisons, bitwise and logical ops. */
        INTEGER,
        /** IEEE 754: arithmetic and comparisons. */
        FLOATING,
        /** BOOLEAN: logical ops only. */
        LOGICAL,
        /** (value, index) pairs: MINLOC and MAXLOC only. */
        PAIR
    }

    private final int sizeBytes;
    private final Kind kind;

    ElementType(int sizeBytes, Kind kind) {
        this.sizeBytes = sizeBytes;
        this.kind = kind;
    }

    /** Bytes one element occupies, padding of the pair types included. */
    public int sizeBytes() {
        return sizeBytes;
    }

    public Kind kind() {
        return kind;
    }

    /** Bytes of {@code count} elements; {@link ArithmeticException} on overflow, never a wrapped size. */
    public long bytes(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("negative element count " + count);
        }
        return Math.multiplyExact(count, sizeBytes);
    }
}
