package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lifecycle, the buffer rules and the error classes on a one-rank job (no launcher: singleton init), where every
 * collective is a local copy through the same packing as on many ranks. Many ranks: {@code MpiProgramsSystemTest}.
 */
class SingletonCommTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void environment() throws MPIException {
        assertTrue(MPI.isInitialized());
        assertEquals(0, MPI.COMM_WORLD.getRank());
        assertEquals(1, MPI.COMM_WORLD.getSize());
        assertEquals(1, MPI.COMM_SELF.getSize());
        assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
        assertEquals(3, MPI.getVersion().getVersion());
        assertEquals(1, MPI.getVersion().getSubVersion());
        assertTrue(MPI.getLibVersion().startsWith("railcoll-mpi "), MPI.getLibVersion());
        assertTrue(MPI.wtick() > 0 && MPI.wtime() > 0);
        assertTrue(!MPI.getProcessorName().isEmpty());
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
        MPIException again = assertThrows(MPIException.class, () -> MPI.Init(new String[0]));
        assertEquals("MPI is already initialized.", again.getMessage());
        assertEquals(0, again.getErrorClass());
        assertNotSame(MPI.ERRORS_RETURN, MPI.COMM_WORLD.getErrhandler());
        MPI.COMM_WORLD.barrier();
    }

    @Test
    void buffersAddressFromTheirStartAndSliceGivesOffsets() throws MPIException {
        int[] a = {1, 2, 3, 4, 5, 6};
        int[] all = new int[2];
        // A slice of an array: a heap buffer at arrayOffset 4.
        MPI.COMM_WORLD.allGather(MPI.slice(a, 4), 2, MPI.INT, all, 2, MPI.INT);
        assertArrayEquals(new int[] {5, 6}, all);
        // Position is ignored: a heap buffer is read from its array offset, as the bindings do.
        IntBuffer positioned = IntBuffer.wrap(a);
        positioned.position(3);
        MPI.COMM_WORLD.allGather(positioned, 2, MPI.INT, all, 2, MPI.INT);
        assertArrayEquals(new int[] {1, 2}, all);
        // A direct DoubleBuffer made before or after Init, in place.
        DoubleBuffer d = MPI.newDoubleBuffer(3).put(0, 1.5).put(1, 2.5).put(2, 9);
        MPI.COMM_WORLD.allReduce(d, 2, MPI.DOUBLE, MPI.SUM);
        assertEquals(2.5, d.get(1));
        // A direct ByteBuffer carries any type.
        ByteBuffer raw = MPI.newByteBuffer(8);
        raw.asIntBuffer().put(0, 7).put(1, 8);
        int[] out = new int[2];
        MPI.COMM_WORLD.allReduce(raw, out, 2, MPI.INT, MPI.MAX);
        assertArrayEquals(new int[] {7, 8}, out);
    }

    @Test
    void derivedTypesMoveOnlyTheirTypeMap() throws MPIException {
        Datatype column = Datatype.createVector(3, 1, 3, MPI.DOUBLE); // a column of a 3x3 row-major matrix
        column.commit();
        double[] m = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        double[] col = new double[3];
        MPI.COMM_WORLD.allGather(m, 1, column, col, 3, MPI.DOUBLE);
        assertArrayEquals(new double[] {1, 4, 7}, col);
        double[] into = {0, -1, -1, 0, -1, -1, 0, -1, -1};
        MPI.COMM_WORLD.allToAll(new double[] {7, 8, 9}, 3, MPI.DOUBLE, into, 1, column);
        assertArrayEquals(new double[] {7, -1, -1, 8, -1, -1, 9, -1, -1}, into);
        // gather in place at the root: own block already in place
        int[] g = {4, 5};
        MPI.COMM_WORLD.gather(g, 2, MPI.INT, 0);
        assertArrayEquals(new int[] {4, 5}, g);
        int[] v = new int[5];
        MPI.COMM_WORLD.allGatherv(new int[] {3, 4}, 2, MPI.INT, v, new int[] {2}, new int[] {3}, MPI.INT);
        assertArrayEquals(new int[] {0, 0, 0, 3, 4}, v);
        int[] inPlace = {0, 0, 8, 9};
        MPI.COMM_WORLD.allGatherv(inPlace, new int[] {2}, new int[] {2}, MPI.INT);
        assertArrayEquals(new int[] {0, 0, 8, 9}, inPlace);
        int[] gv = {-1, -1, -1};
        MPI.COMM_WORLD.gatherv(new int[] {6, 7}, 2, MPI.INT, gv, new int[] {2}, new int[] {1}, MPI.INT, 0);
        assertArrayEquals(new int[] {-1, 6, 7}, gv);
        int[] gvInPlace = {0, 5, 0};
        MPI.COMM_WORLD.gatherv(gvInPlace, new int[] {1}, new int[] {1}, MPI.INT, 0);
        assertArrayEquals(new int[] {0, 5, 0}, gvInPlace);
        assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.gatherv(new int[1], 1, MPI.INT, 0)).getErrorClass());
        int[] av = {-1, -1, -1, -1};
        MPI.COMM_WORLD.allToAllv(new int[] {0, 8, 9}, new int[] {2}, new int[] {1}, MPI.INT, av, new int[] {2},
                new int[] {2}, MPI.INT);
        assertArrayEquals(new int[] {-1, -1, 8, 9}, av);
        MPI.COMM_WORLD.bcast(null, 0, MPI.INT, 0); // no elements: MPI ignores the buffer
        boolean[] flags = {true, false, true};
        MPI.COMM_WORLD.bcast(flags, 3, MPI.BOOLEAN, 0);
        assertArrayEquals(new boolean[] {true, false, true}, flags);
    }

    @Test
    void errorsCarryTheirClassAndNameTheCall() throws MPIException {
        int[] data = new int[4];
        MPIException root = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.bcast(data, 1, MPI.INT, 1));
        assertEquals(MPI.ERR_ROOT, root.getErrorClass());
        assertEquals(MPI.ERR_ROOT, root.getErrorCode());
        assertEquals("MPI_ERR_ROOT: bcast on rank 0 of MPI_COMM_WORLD: invalid root: 1 (the communicator has 1 ranks)",
                root.getMessage());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.allReduce(data, -1, MPI.INT, MPI.SUM)).getErrorClass());
        MPIException wrongArray = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.allReduce(new double[4], 4, MPI.INT, MPI.SUM));
        assertEquals(MPI.ERR_BUFFER, wrongArray.getErrorClass());
        assertTrue(wrongArray.getMessage().contains("double[]"), wrongArray.getMessage());
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.allGather(data, 2, MPI.INT, data, 1, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, MPI.COMM_WORLD::free).getErrorClass());
        assertThrows(IndexOutOfBoundsException.class, () -> MPI.COMM_WORLD.bcast(data, 5, MPI.INT, 0));
        assertThrows(NullPointerException.class, () -> MPI.COMM_WORLD.bcast(data, 1, null, 0));
        assertEquals(MPI.ERR_OTHER, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER))
                .getErrorClass());
    }
}
