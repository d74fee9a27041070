package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code iDup} and its request, {@code dupWithInfo}, {@code setInfo}/{@code getInfo}, {@code disconnect},
 * {@code Intercomm.getParent} and {@code Datatype}'s attributes: on one rank, and {@code iDup}, {@code dupWithInfo}
 * and {@code disconnect} on three ranks in this JVM, each over its own railcoll communicator.
 */
class CommInfoAndDupTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void iDupGivesAWorkingIntracommWhoseRequestCompletes() throws MPIException {
        assertNull(MPI.COMM_WORLD.getRequest(), "not made by iDup");
        Intracomm d = MPI.COMM_WORLD.iDup();
        Request r = d.getRequest();
        assertNotNull(r);
        assertFalse(r.isNull());
        Status s = r.testStatus();
        assertNotNull(s, "the duplication has finished");
        assertTrue(r.isNull(), "a completed request is null after the test that saw it");
        int[] out = new int[1];
        d.allReduce(new int[] {7}, out, 1, MPI.INT, MPI.SUM);
        assertEquals(7, out[0]);
        assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, d));
        assertNull(d.dup().getRequest(), "a dup of it was not made by iDup");
        Request.waitAll(new Request[] {d.getRequest()}); // waiting again on the null handle returns at once
        d.free();
    }

    @Test
    void hintsAreKeptReturnedAsCopiesMergedBySetInfoAndInheritedByDup() throws MPIException {
        Intracomm d = MPI.COMM_WORLD.dup();
        assertEquals(0, d.getInfo().size(), "no hints yet");
        Info hints = new Info();
        hints.set("railcoll_hint", "a");
        hints.set("mpi_assert_no_any_tag", "true");
        d.setInfo(hints);
        Info more = new Info();
        more.set("railcoll_hint", "b");
        d.setInfo(more);
        Info got = d.getInfo();
        assertEquals(2, got.size());
        assertEquals("b", got.get("railcoll_hint"), "setInfo replaces the keys it names");
        assertEquals("true", got.get("mpi_assert_no_any_tag"), "and keeps the others");
        got.set("railcoll_hint", "changed");
        assertEquals("b", d.getInfo().get("railcoll_hint"), "getInfo returns a copy");

        Intracomm child = d.dup();
        assertEquals("true", child.getInfo().get("mpi_assert_no_any_tag"), "dup keeps the parent's hints");
        Info own = new Info();
        own.set("only", "this");
        Intracomm withInfo = d.dupWithInfo(own);
        Info w = withInfo.getInfo();
        assertEquals(1, w.size(), "dupWithInfo takes the given hints, not the parent's");
        assertEquals("this", w.get("only"));
        assertEquals(0, d.dupWithInfo(MPI.INFO_NULL).getInfo().size());
        own.free();
        MPIException e = assertThrows(MPIException.class, () -> d.setInfo(own));
        assertEquals(MPI.ERR_INFO, e.getErrorClass());
        assertEquals(MPI.ERR_INFO, assertThrows(MPIException.class, () -> d.dupWithInfo(null)).getErrorClass());
        int[] out = new int[1];
        withInfo.allReduce(new int[] {3}, out, 1, MPI.INT, MPI.SUM);
        assertEquals(3, out[0]);
        for (Comm c : List.of(child, withInfo, d)) {
            c.free();
        }
    }

    @Test
    void disconnectFreesADerivedCommunicatorAndRefusesThePredefinedOnes() throws MPIException {
        Intracomm d = MPI.COMM_WORLD.dup();
        d.disconnect();
        assertTrue(d.isNull());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, d::disconnect).getErrorClass());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, MPI.COMM_WORLD::disconnect).getErrorClass());
        assertFalse(MPI.COMM_WORLD.isNull());
    }

    @Test
    void aProcessThatWasNotSpawnedHasANullParent() throws MPIException {
        Intercomm parent = Intercomm.getParent();
        assertTrue(parent.isNull());
        assertNotSame(parent, Intercomm.getParent());
        assertFalse(MPI.COMM_WORLD.isInter());
    }

    @Test
    void datatypesCacheSerialisedAttributesThatDupCopies() throws MPIException {
        Datatype t = Datatype.createContiguous(2, MPI.INT);
        int key = Datatype.createKeyval();
        assertNull(t.getAttr(key));
        int[] value = {1, 2};
        t.setAttr(key, value);
        assertArrayEquals(value, (int[]) t.getAttr(key));
        assertNotSame(value, t.getAttr(key), "a copy, as the bindings return");
        Datatype copy = t.dup();
        assertArrayEquals(value, (int[]) copy.getAttr(key));
        t.deleteAttr(key);
        assertNull(t.getAttr(key));
        assertArrayEquals(value, (int[]) copy.getAttr(key), "the dup keeps its own");
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> t.setAttr(MPI.TAG_UB, 1))
                .getErrorClass());
        Datatype.freeKeyval(key);
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> copy.getAttr(key)).getErrorClass());
        t.free();
        copy.free();
    }

    @Test
    void iDupDupWithInfoAndDisconnectOnThreeRanks() throws Exception {
        List<Object> sums = InProcessComms.onRanks(3, (comm, rank) -> {
            Intracomm d = comm.iDup();
            Request.waitAll(new Request[] {d.getRequest()});
            Info info = new Info();
            info.set("rank_hint", "r" + rank);
            Intracomm w = d.dupWithInfo(info);
            int[] sum = new int[1];
            w.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
            int[] max = new int[1];
            d.allReduce(new int[] {rank}, max, 1, MPI.INT, MPI.MAX);
            String hint = w.getInfo().get("rank_hint");
            w.disconnect();
            d.disconnect();
            return sum[0] + "," + max[0] + "," + hint + "," + w.isNull() + "," + d.isNull();
        });
        assertEquals(List.of("6,2,r0,true,true", "6,2,r1,true,true", "6,2,r2,true,true"), sums);
    }
}
