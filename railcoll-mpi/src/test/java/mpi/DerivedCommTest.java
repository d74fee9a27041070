package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Derived communicators (dup, split, splitType, create), their groups, compare and free on a one-rank job. The
 * railcoll sub-communicators behind them on many ranks: {@code MpiProgramsSystemTest}'s collectives program.
 */
class DerivedCommTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void dupIsACongruentIntracommWithItsOwnCollectivesAndTheParentsHandler() throws MPIException {
        Intracomm d = MPI.COMM_WORLD.dup();
        assertNotSame(MPI.COMM_WORLD, d);
        assertEquals(1, d.getSize());
        assertEquals(0, d.getRank());
        assertFalse(d.isNull());
        assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, d));
        assertEquals(MPI.IDENT, Comm.compare(d, d));
        assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF)); // one rank: the same process
        int[] sum = new int[2];
        d.allReduce(new int[] {3, 4}, sum, 2, MPI.INT, MPI.SUM);
        assertArrayEquals(new int[] {3, 4}, sum);
        // Inherited ERRORS_RETURN: an error is thrown, not fatal.
        MPIException e = assertThrows(MPIException.class, () -> d.bcast(new int[1], 1, MPI.INT, 1));
        assertEquals(MPI.ERR_ROOT, e.getErrorClass());
        d.free();
        assertTrue(d.isNull());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, d::barrier).getErrorClass());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, d::free).getErrorClass());
        Comm c = MPI.COMM_SELF.clone();
        assertTrue(c instanceof Intracomm);
        assertEquals(MPI.CONGRUENT, Comm.compare(c, MPI.COMM_SELF));
        c.free();
    }

    @Test
    void splitWithUndefinedGivesANullCommAndOtherColoursAWorkingOne() throws MPIException {
        Intracomm none = MPI.COMM_WORLD.split(MPI.UNDEFINED, 0);
        assertTrue(none.isNull());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, none::getSize).getErrorClass());
        Intracomm s = MPI.COMM_SELF.split(7, 3);
        assertEquals(1, s.getSize());
        double[] v = {2.5};
        s.scan(v, 1, MPI.DOUBLE, MPI.SUM);
        assertEquals(2.5, v[0]);
        MPIException bad = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.split(-5, 0));
        assertEquals(MPI.ERR_ARG, bad.getErrorClass());
        assertTrue(bad.getMessage().contains("colour -5"), bad.getMessage());
        s.free();
    }

    @Test
    void splitTypeSharedHoldsThisNodesRanks() throws MPIException {
        Intracomm node = MPI.COMM_WORLD.splitType(Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
        assertEquals(1, node.getSize());
        assertEquals(MPI.CONGRUENT, Comm.compare(node, MPI.COMM_WORLD));
        int[] got = new int[1];
        node.allGather(new int[] {42}, 1, MPI.INT, got, 1, MPI.INT);
        assertEquals(42, got[0]);
        node.free();
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.splitType(5, 0, null)).getErrorClass());
    }

    @Test
    void groupsAndCreate() throws MPIException {
        Group world = MPI.COMM_WORLD.getGroup();
        assertEquals(1, world.getSize());
        assertEquals(0, world.getRank());
        assertEquals(0, MPI.GROUP_EMPTY.getSize());
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
        assertEquals(MPI.IDENT, Group.compare(world, MPI.COMM_SELF.getGroup()));
        assertArrayEquals(new int[] {0, MPI.PROC_NULL}, Group.translateRanks(world, new int[] {0, MPI.PROC_NULL}, world));
        assertArrayEquals(new int[] {MPI.UNDEFINED}, Group.translateRanks(world, new int[] {0}, MPI.GROUP_EMPTY));
        Group none = world.excl(new int[] {0});
        assertEquals(0, none.getSize());
        assertEquals(MPI.IDENT, Group.compare(none, MPI.GROUP_EMPTY));
        assertEquals(1, Group.union(none, world).getSize());
        assertEquals(0, Group.intersection(none, world).getSize());
        assertEquals(0, Group.difference(world, world).getSize());
        assertEquals(1, world.rangeIncl(new int[][] {{0, 0, 1}}).getSize());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> world.incl(new int[] {1})).getErrorClass());
        Intracomm made = MPI.COMM_WORLD.create(world.incl(new int[] {0}));
        assertEquals(1, made.getSize());
        made.free();
        assertTrue(MPI.COMM_WORLD.create(none).isNull());
        world.free();
        assertTrue(world.isNull());
        assertEquals(MPI.ERR_GROUP, assertThrows(MPIException.class, world::getSize).getErrorClass());
    }

    @Test
    void infoKeepsItsKeysInOrder() throws MPIException {
        Info info = new Info();
        info.set("b", "1");
        info.set("a", "2");
        assertEquals(2, info.size());
        assertEquals("b", info.getKey(0));
        assertEquals("2", info.clone().get("a"));
        info.delete("b");
        assertEquals(MPI.ERR_INFO_NOKEY, assertThrows(MPIException.class, () -> info.delete("b")).getErrorClass());
        info.free();
        assertTrue(info.isNull());
    }
}
