package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Extents, sizes and bounds in the bindings' units, and packing of derived types against a naive reference. */
class DatatypeTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void predefinedTypesReportInBaseUnits() throws MPIException {
        assertEquals(1, MPI.INT.getExtent());
        assertEquals(1, MPI.INT.getSize());
        assertEquals(1, MPI.DOUBLE.getExtent());
        assertEquals(1, MPI.BYTE.getExtent());
        assertEquals(1, MPI.BOOLEAN.getExtent());
        assertEquals(2, MPI.DOUBLE_COMPLEX.getExtent());
        assertEquals(2, MPI.FLOAT_COMPLEX.getExtent());
        // Pair types live in bytes: extent and size in bytes, padding in the extent only.
        assertEquals(8, MPI.INT2.getExtent());
        assertEquals(8, MPI.INT2.getSize());
        assertEquals(8, MPI.SHORT_INT.getExtent());
        assertEquals(6, MPI.SHORT_INT.getSize());
        assertEquals(16, MPI.LONG_INT.getExtent());
        assertEquals(12, MPI.LONG_INT.getSize());
        assertEquals(8, MPI.FLOAT_INT.getExtent());
        assertEquals(16, MPI.DOUBLE_INT.getExtent());
        assertEquals(12, MPI.DOUBLE_INT.getSize());
        assertEquals(12, MPI.DOUBLE_INT.getTrueExtent());
        assertEquals("MPI_INT32_T", MPI.INT.getName());
        assertEquals("MPI_DOUBLE_INT", MPI.DOUBLE_INT.getName());
        assertFalse(MPI.INT.isNull());
        assertTrue(MPI.DATATYPE_NULL.isNull());
    }

    @Test
    void derivedTypesInheritTheBaseAndUseMpisArgumentUnits() throws MPIException {
        assertEquals(3, Datatype.createContiguous(3, MPI.INT).getExtent());
        assertEquals(3, Datatype.createContiguous(3, MPI.INT).getSize());
        // vector: stride in extents of the old type: 3 blocks of 2 ints, 4 ints apart -> spans 2*4+2 ints.
        Datatype v = Datatype.createVector(3, 2, 4, MPI.INT);
        assertEquals(10, v.getExtent());
        assertEquals(6, v.getSize());
        assertEquals(0, v.getLb());
        // hvector: stride in bytes: 16 bytes = 2 doubles.
        Datatype hv = Datatype.createHVector(3, 1, 16, MPI.DOUBLE);
        assertEquals(5, hv.getExtent());
        assertEquals(3, hv.getSize());
        Datatype ix = Datatype.createIndexed(new int[] {2, 1}, new int[] {1, 5}, MPI.LONG);
        assertEquals(1, ix.getLb());
        assertEquals(5, ix.getExtent());
        assertEquals(3, ix.getSize());
        Datatype hix = Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, 24}, MPI.INT);
        assertEquals(2, hix.getLb());
        assertEquals(5, hix.getExtent());
        // resized: lb and extent in bytes, reported in base units.
        assertEquals(4, Datatype.createResized(MPI.INT, 0, 16).getExtent());
        assertEquals(1, Datatype.createResized(MPI.INT, 4, 16).getLb());
        assertEquals(1, Datatype.createResized(MPI.INT, 0, 16).getTrueExtent());
        // a vector of complex numbers keeps the FLOAT base: extents in floats
        assertEquals(6, Datatype.createContiguous(3, MPI.FLOAT_COMPLEX).getExtent());
    }

    @Test
    void structsAreInBytesWithTheirExtentRoundedToTheLargestAlignment() throws MPIException {
        // {int @0, double @4} as Struct.addInt(); addDouble() lays it out: extent 16, true extent 12, size 12.
        Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        assertEquals(16, s.getExtent());
        assertEquals(12, s.getTrueExtent());
        assertEquals(12, s.getSize());
        Datatype c = Datatype.createStruct(new int[] {3}, new int[] {0}, new Datatype[] {MPI.CHAR});
        assertEquals(6, c.getExtent());
        Datatype nested = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8}, new Datatype[] {MPI.BYTE, s});
        assertEquals(40, nested.getExtent());
        assertEquals(25, nested.getSize());
    }

    @Test
    void packThenUnpackMatchesANaiveTypeMapAndLeavesGapsAlone() throws MPIException {
        Random random = new Random(23);
        for (int trial = 0; trial < 200; trial++) {
            int count = random.nextInt(4);
            int blocks = 1 + random.nextInt(4);
            int blockLength = random.nextInt(3);
            int stride = blockLength + random.nextInt(3);
            Datatype type;
            int[] reference; // the int indexes of one element, in type-map order
            if (random.nextBoolean()) {
                type = Datatype.createVector(blocks, blockLength, stride, MPI.INT);
                reference = new int[blocks * blockLength];
                for (int b = 0, k = 0; b < blocks; b++) {
                    for (int j = 0; j < blockLength; j++) {
                        reference[k++] = b * stride + j;
                    }
                }
            } else {
                int[] lengths = new int[blocks];
                int[] displs = new int[blocks];
                int at = random.nextInt(2);
                int total = 0;
                for (int b = 0; b < blocks; b++) {
                    lengths[b] = random.nextInt(3);
                    displs[b] = at;
                    at += lengths[b] + random.nextInt(3);
                    total += lengths[b];
                }
                type = Datatype.createIndexed(lengths, displs, MPI.INT);
                reference = new int[total];
                for (int b = 0, k = 0; b < blocks; b++) {
                    for (int j = 0; j < lengths[b]; j++) {
                        reference[k++] = displs[b] + j;
                    }
                }
            }
            int extent = type.getExtent();
            int span = count == 0 ? 0 : (count - 1) * extent + Arrays.stream(reference).max().orElse(-1) + 1;
            int[] source = new int[Math.max(span, 1)];
            for (int i = 0; i < source.length; i++) {
                source[i] = random.nextInt();
            }
            MemorySegment packed = MemorySegment.ofArray(new byte[count * reference.length * 4]);
            type.map.pack(MemorySegment.ofArray(source), 0, count, packed, 0);
            for (int e = 0, k = 0; e < count; e++) {
                for (int r : reference) {
                    assertEquals(source[e * extent + r], packed.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, k++),
                            "trial " + trial + ", element " + e);
                }
            }
            int[] target = new int[source.length];
            Arrays.fill(target, -7);
            type.map.unpack(packed, 0, count, MemorySegment.ofArray(target), 0);
            int[] expected = new int[source.length];
            Arrays.fill(expected, -7);
            for (int e = 0; e < count; e++) {
                for (int r : reference) {
                    expected[e * extent + r] = source[e * extent + r];
                }
            }
            assertArrayEquals(expected, target, "trial " + trial);
        }
    }

    @Test
    void derivedTypesMustBeCommittedAndPredefinedOnesCannotBeFreed() throws MPIException {
        Datatype v = Datatype.createVector(2, 1, 2, MPI.INT);
        int[] data = new int[4];
        MPIException notCommitted = assertThrows(MPIException.class, () -> MPI.COMM_SELF.bcast(data, 1, v, 0));
        assertEquals(MPI.ERR_TYPE, notCommitted.getErrorClass());
        assertTrue(notCommitted.getMessage().startsWith("MPI_ERR_TYPE: bcast on rank 0 of MPI_COMM_SELF"),
                notCommitted.getMessage());
        v.commit();
        MPI.COMM_SELF.bcast(data, 1, v, 0);
        v.free();
        assertTrue(v.isNull());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, () -> MPI.COMM_SELF.bcast(data, 1, v, 0)).getErrorClass());
        assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class, MPI.INT::free).getErrorClass());
        Datatype d = Datatype.createContiguous(2, MPI.INT).dup();
        assertEquals(2, d.getExtent());
        assertEquals(2, d.clone().getExtent());
    }
}
