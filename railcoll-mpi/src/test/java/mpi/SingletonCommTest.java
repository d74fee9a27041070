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
    void reductionsAndScattersWithTheirInPlaceForms() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int[] r = {-1, -1, -1};
        w.reduce(new int[] {4, 5, 6}, r, 2, MPI.INT, MPI.SUM, 0);
        assertArrayEquals(new int[] {4, 5, -1}, r);
        double[] d = {1.5, 2.5};
        w.reduce(d, 2, MPI.DOUBLE, MPI.MAX, 0); // in place on the root
        assertArrayEquals(new double[] {1.5, 2.5}, d);
        long[] block = {-1, -1};
        w.reduceScatterBlock(new long[] {7, 8, 9}, block, 2, MPI.LONG, MPI.PROD);
        assertArrayEquals(new long[] {7, 8}, block);
        short[] sb = {3, 4, 5};
        w.reduceScatterBlock(sb, 2, MPI.SHORT, MPI.BOR);
        assertArrayEquals(new short[] {3, 4, 5}, sb);
        int[] rs = {-1, -1, -1};
        w.reduceScatter(new int[] {1, 2}, rs, new int[] {2}, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {1, 2, -1}, rs);
        float[] rsInPlace = {1, 2, 3};
        w.reduceScatter(rsInPlace, new int[] {3}, MPI.FLOAT, MPI.MIN);
        assertArrayEquals(new float[] {1, 2, 3}, rsInPlace);
        int[] prefix = new int[2];
        w.scan(new int[] {9, 8}, prefix, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {9, 8}, prefix);
        // exScan: rank 0 has no lower ranks, so its receive buffer keeps what it held, in both forms
        int[] ex = {-7, -7};
        w.exScan(new int[] {1, 2}, ex, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {-7, -7}, ex);
        double[] exInPlace = {3, 4};
        w.exScan(exInPlace, 2, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(new double[] {3, 4}, exInPlace);
        // scatter, its in-place form, and a derived receive type
        int[] got = {-1, -1, -1};
        w.scatter(new int[] {5, 6}, 2, MPI.INT, got, 2, MPI.INT, 0);
        assertArrayEquals(new int[] {5, 6, -1}, got);
        int[] own = {1, 2};
        w.scatter(own, 2, MPI.INT, 0);
        assertArrayEquals(new int[] {1, 2}, own);
        Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.INT);
        everyOther.commit();
        int[] spread = {-1, -1, -1};
        w.scatter(new int[] {7, 8}, 2, MPI.INT, spread, 1, everyOther, 0);
        assertArrayEquals(new int[] {7, -1, 8}, spread);
        // scatterv: the full form from a displacement, the root's in-place form, the other ranks' form refused here
        int[] v = {-1, -1, -1};
        w.scatterv(new int[] {0, 0, 3, 4}, new int[] {2}, new int[] {2}, MPI.INT, v, 2, MPI.INT, 0);
        assertArrayEquals(new int[] {3, 4, -1}, v);
        int[] keep = {0, 6, 0};
        w.scatterv(keep, new int[] {1}, new int[] {1}, MPI.INT, 0);
        assertArrayEquals(new int[] {0, 6, 0}, keep);
        assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                () -> w.scatterv(new int[1], 1, MPI.INT, 0)).getErrorClass());
        MPIException truncated = assertThrows(MPIException.class,
                () -> w.scatterv(new int[4], new int[] {3}, new int[] {0}, MPI.INT, new int[4], 2, MPI.INT, 0));
        assertEquals(MPI.ERR_TRUNCATE, truncated.getErrorClass());
        assertTrue(truncated.getMessage().contains("12 bytes but 2 elements"), truncated.getMessage());
        // a direct buffer carrying ints, reduced at the root with an unsigned BYTE view untouched
        ByteBuffer raw = MPI.newByteBuffer(8);
        raw.asIntBuffer().put(0, 11).put(1, 12);
        int[] fromRaw = new int[2];
        w.reduce(raw, fromRaw, 2, MPI.INT, MPI.MIN, 0);
        assertArrayEquals(new int[] {11, 12}, fromRaw);
    }

    /** A user op on 12-byte elements (no railcoll element type: the fold) and on 8-byte ones, through every reduction. */
    @Test
    void userOpsOnOddAndEvenElementSizesThroughEveryReduction() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        for (int ints : new int[] {2, 3}) {
            Datatype t = Datatype.createContiguous(ints, MPI.INT);
            t.commit();
            Op first = new Op(new UserFunction() {
                @Override
                public void call(Object in, Object inOut, int count, Datatype type) {
                    throw new AssertionError("one rank: nothing to combine");
                }
            }, false);
            int[] data = new int[2 * ints];
            for (int i = 0; i < data.length; i++) {
                data[i] = 10 + i;
            }
            int[] out = new int[data.length];
            w.reduce(data, out, 2, t, first, 0);
            assertArrayEquals(data, out);
            int[] scanned = new int[data.length];
            w.scan(data, scanned, 2, t, first);
            assertArrayEquals(data, scanned);
            int[] blockOut = new int[data.length];
            w.reduceScatterBlock(data, blockOut, 2, t, first);
            assertArrayEquals(data, blockOut);
            int[] untouched = new int[data.length];
            w.exScan(data, untouched, 2, t, first);
            assertArrayEquals(new int[data.length], untouched);
            assertTrue(!first.isNull(), "a user op is no longer null after its first use");
        }
    }

    @Test
    void errorsCarryTheirClassAndNameTheCall() throws MPIException {
        int[] data = new int[4];
        MPIException root = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.bcast(data, 1, MPI.INT, 1));
        assertEquals(MPI.ERR_ROOT, root.getErrorClass());
        assertEquals(MPI.ERR_ROOT, root.getErrorCode());
        assertEquals("MPI_ERR_ROOT: bcast on rank 0 of MPI_COMM_WORLD: invalid root: 1 (the communicator has size 1)",
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
        assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.reduce(data, data, 1, MPI.INT, MPI.SUM, 2)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.reduceScatter(data, data, new int[0], MPI.INT, MPI.SUM)).getErrorClass());
        MPIException negative = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.reduceScatter(data, new int[] {-2}, MPI.INT, MPI.SUM));
        assertEquals(MPI.ERR_COUNT, negative.getErrorClass());
        assertTrue(negative.getMessage().contains("rank 0's count in counts is -2"), negative.getMessage());
        assertEquals(MPI.ERR_OP, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.scan(data, 1, MPI.INT, MPI.REPLACE)).getErrorClass());
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.scatter(data, 2, MPI.INT, new int[4], 1, MPI.INT, 0)).getErrorClass());
        assertThrows(IndexOutOfBoundsException.class,
                () -> MPI.COMM_WORLD.reduceScatterBlock(data, new int[1], 5, MPI.INT, MPI.SUM));
        assertThrows(IndexOutOfBoundsException.class, () -> MPI.COMM_WORLD.bcast(data, 5, MPI.INT, 0));
        assertThrows(NullPointerException.class, () -> MPI.COMM_WORLD.bcast(data, 1, null, 0));
        assertEquals(MPI.ERR_OTHER, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.callErrhandler(MPI.ERR_OTHER))
                .getErrorClass());
    }
}
