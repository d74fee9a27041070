package mpi;

import io.railcoll.reduce.ElementType;

/**
 * The leaves of a type map: the predefined datatypes, each with the bytes railcoll-mpi moves for it
 * ({@link #movedBytes}: the C layout, padding of the pair types included, so that a packed pair is railcoll's
 * {@link ElementType} of the same name), the size MPI reports for it ({@link #mpiSize}, padding excluded), its
 * alignment (what a struct's extent is rounded up to) and the railcoll element type its predefined reductions run
 * on (null where no single railcoll type fits: {@code SHORT_INT} and the complex types, see {@link Reductions}).
 * Layouts are those of LP64 Linux, as in the bindings there.
 */
enum Primitive {
    BYTE("MPI_UINT8_T", 1, 1, 1, 1, 0, ElementType.BYTE),
    CHAR("MPI_UINT16_T", 2, 2, 2, 2, 0, ElementType.CHAR),
    SHORT("MPI_INT16_T", 2, 2, 2, 2, 0, ElementType.SHORT),
    BOOLEAN("MPI_UINT8_T", 1, 1, 1, 1, 0, ElementType.BYTE),
    INT("MPI_INT32_T", 4, 4, 4, 4, 0, ElementType.INT),
    LONG("MPI_INT64_T", 8, 8, 8, 8, 0, ElementType.LONG),
    FLOAT("MPI_FLOAT", 4, 4, 4, 4, 0, ElementType.FLOAT),
    DOUBLE("MPI_DOUBLE", 8, 8, 8, 8, 0, ElementType.DOUBLE),
    PACKED("MPI_PACKED", 1, 1, 1, 1, 0, ElementType.BYTE),
    /** {int value @0, int index @4}. */
    INT2("MPI_2INT", 8, 8, 4, 8, 4, ElementType.INT_INT),
    /** {short value @0, int index @4}: 2 padding bytes inside. */
    SHORT_INT("MPI_SHORT_INT", 8, 6, 4, 8, 4, null),
    /** {long value @0, int index @8}, 4 padding bytes at the end. */
    LONG_INT("MPI_LONG_INT", 16, 12, 8, 12, 8, ElementType.LONG_INT),
    /** {float value @0, int index @4}. */
    FLOAT_INT("MPI_FLOAT_INT", 8, 8, 4, 8, 4, ElementType.FLOAT_INT),
    /** {double value @0, int index @8}, 4 padding bytes at the end. */
    DOUBLE_INT("MPI_DOUBLE_INT", 16, 12, 8, 12, 8, ElementType.DOUBLE_INT),
    /** (re, im) floats. */
    FLOAT_COMPLEX("MPI_C_FLOAT_COMPLEX", 8, 8, 4, 8, 0, null),
    /** (re, im) doubles. */
    DOUBLE_COMPLEX("MPI_C_DOUBLE_COMPLEX", 16, 16, 8, 16, 0, null);

    /** The C name, what {@code getName()} returns for the predefined type. */
    final String cName;
    /** Bytes one element occupies in memory and on the wire: its extent. */
    final int movedBytes;
    final int mpiSize;
    final int alignment;
    /** Bytes from the element's start to the end of its last field (its true upper bound). */
    final int trueUb;
    /** Byte offset of the index of a (value, index) pair; 0 otherwise. */
    final int indexOffset;
    final ElementType elementType;

    Primitive(String cName, int movedBytes, int mpiSize, int alignment, int trueUb, int indexOffset,
              ElementType elementType) {
        this.cName = cName;
        this.movedBytes = movedBytes;
        this.mpiSize = mpiSize;
        this.alignment = alignment;
        this.trueUb = trueUb;
        this.indexOffset = indexOffset;
        this.elementType = elementType;
    }
}
