package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pack}, {@code unpack}, {@code packSize}, attributes and keyvals, and {@code allToAllw}, on one rank. */
class PackAndAttributesTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void packAndUnpackMoveOnlyTheTypeMap() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
        every2.commit();
        assertEquals(12, w.packSize(1, every2));
        assertEquals(16, w.packSize(2, MPI.DOUBLE));
        byte[] packed = new byte[2 + 12 + 16];
        int at = w.pack(new int[] {1, -1, 2, -1, 3}, 1, every2, packed, 2);
        assertEquals(14, at);
        at = w.pack(new double[] {0.5, 1.5}, 2, MPI.DOUBLE, packed, at);
        assertEquals(30, at);
        int[] ints = {9, 9, 9, 9, 9};
        at = w.unpack(packed, 2, ints, 1, every2);
        assertEquals(14, at);
        assertArrayEquals(new int[] {1, 9, 2, 9, 3}, ints); // the gaps keep their contents
        double[] ds = new double[2];
        assertEquals(30, w.unpack(packed, at, ds, 2, MPI.DOUBLE));
        assertArrayEquals(new double[] {0.5, 1.5}, ds);
        boolean[] flags = {true, false, true};
        byte[] fb = new byte[3];
        w.pack(flags, 3, MPI.BOOLEAN, fb, 0);
        boolean[] back = new boolean[3];
        w.unpack(fb, 0, back, 3, MPI.BOOLEAN);
        assertArrayEquals(flags, back);
        assertEquals(5, w.pack(new int[0], 0, MPI.INT, new byte[5], 5)); // nothing to pack at the end: fine
        MPIException full = assertThrows(MPIException.class, () -> w.pack(new int[] {1, 2}, 2, MPI.INT, new byte[7], 0));
        assertEquals(MPI.ERR_TRUNCATE, full.getErrorClass());
        assertTrue(full.getMessage().contains("pack to 8 bytes, which do not fit at position 0 of 7"), full.getMessage());
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                () -> w.unpack(new byte[4], 2, new int[1], 1, MPI.INT)).getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class, () -> w.packSize(-1, MPI.INT)).getErrorClass());
    }

    record Point(int x, String label) implements Serializable {
    }

    @Test
    void attributesAreCopiesAndDupCopiesThem() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int key = Comm.createKeyval();
        assertTrue(key > MPI.WIN_DISP_UNIT);
        assertNull(w.getAttr(key));
        List<String> value = new ArrayList<>(List.of("a", "b"));
        w.setAttr(key, value);
        value.add("c"); // stored serialised: later changes do not reach it
        Object got = w.getAttr(key);
        assertEquals(List.of("a", "b"), got);
        assertNotSame(got, w.getAttr(key));
        Intracomm d = w.dup();
        assertEquals(List.of("a", "b"), d.getAttr(key));
        w.deleteAttr(key);
        assertNull(w.getAttr(key));
        assertEquals(List.of("a", "b"), d.getAttr(key));
        d.setAttr(key, new Point(3, "p"));
        assertEquals(new Point(3, "p"), d.getAttr(key));
        d.free();
        Comm.freeKeyval(key);
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> w.setAttr(key, 1)).getErrorClass());
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> Comm.freeKeyval(key)).getErrorClass());
        int other = Comm.createKeyval();
        MPIException notSerializable = assertThrows(MPIException.class, () -> w.setAttr(other, new Object()));
        assertEquals(0, notSerializable.getErrorClass());
        Comm.freeKeyval(other);
    }

    @Test
    void predefinedKeyvals() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        assertEquals(Integer.MAX_VALUE, w.getAttr(MPI.TAG_UB));
        assertEquals(MPI.PROC_NULL, w.getAttr(MPI.HOST));
        assertEquals(MPI.ANY_SOURCE, w.getAttr(MPI.IO));
        assertEquals(0, w.getAttr(MPI.APPNUM));
        assertEquals(MPI.ERR_LASTCODE, w.getAttr(MPI.LASTUSEDCODE));
        assertEquals(1, w.getAttr(MPI.UNIVERSE_SIZE));
        assertEquals(Boolean.FALSE, w.getAttr(MPI.WTIME_IS_GLOBAL));
        assertNull(w.getAttr(MPI.WIN_BASE));
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> w.setAttr(MPI.TAG_UB, 5)).getErrorClass());
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> w.deleteAttr(MPI.TAG_UB)).getErrorClass());
    }

    @Test
    void allToAllwTakesByteDisplacementsAndATypePerRank() throws MPIException {
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();
        int[] send = {0, 5, 6, 0};
        int[] recv = {-1, -1, -1, -1};
        // one pair from byte 4 of send, received as two INTs at byte 8
        MPI.COMM_WORLD.allToAllw(send, new int[] {1}, new int[] {4}, new Datatype[] {pair}, recv, new int[] {2},
                new int[] {8}, new Datatype[] {MPI.INT});
        assertArrayEquals(new int[] {-1, -1, 5, 6}, recv);
        assertThrows(IndexOutOfBoundsException.class, () -> MPI.COMM_WORLD.allToAllw(send, new int[] {1},
                new int[] {12}, new Datatype[] {pair}, recv, new int[] {2}, new int[] {0}, new Datatype[] {MPI.INT}));
        assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.allToAllw(send,
                new int[] {1}, new int[] {0}, new Datatype[] {pair}, recv, new int[] {1}, new int[] {0},
                new Datatype[] {MPI.INT})).getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.allToAllw(send,
                new int[] {1}, new int[] {0}, new Datatype[] {MPI.INT}, new double[2], new int[] {1}, new int[] {0},
                new Datatype[] {MPI.INT})).getErrorClass());
    }
}
