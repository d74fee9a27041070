package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests, persistent requests and statuses on a one-rank job, where railcoll's non-blocking collectives finish at
 * their first test; operations that finish later are point-to-point-like ones built from a
 * {@link CompletableFuture} the test completes. Many ranks: {@code InProcessRequestTest} and
 * {@code MpiProgramsSystemTest}'s NonBlocking program.
 */
class RequestTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    /** A request the test finishes by hand, as a transport thread would finish a point-to-point one. */
    private static Request later(CompletableFuture<Status> f) {
        return Request.of(MPI.COMM_WORLD, "test op", f);
    }

    @Test
    void theNullRequest() throws MPIException {
        assertTrue(MPI.REQUEST_NULL.isNull());
        MPI.REQUEST_NULL.waitFor();
        assertTrue(MPI.REQUEST_NULL.test());
        Status s = MPI.REQUEST_NULL.waitStatus();
        assertEquals(MPI.ANY_SOURCE, s.getSource());
        assertEquals(MPI.ANY_TAG, s.getTag());
        assertEquals(MPI.SUCCESS, s.getError());
        assertEquals(0, s.getCount(MPI.INT));
        MPI.REQUEST_NULL.free();
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, MPI.REQUEST_NULL::cancel).getErrorClass());
        Request[] none = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
        assertEquals(MPI.UNDEFINED, Request.waitAny(none));
        assertEquals(MPI.UNDEFINED, Request.testAny(none));
        assertEquals(MPI.UNDEFINED, Request.waitAnyStatus(none).getIndex());
        assertNull(Request.waitSome(none));
        assertNull(Request.testSome(none));
        assertNull(Request.waitSomeStatus(none));
        assertNull(Request.testSomeStatus(none));
        assertTrue(Request.testAll(none));
        Request.waitAll(none);
        assertEquals(2, Request.waitAllStatus(none).length);
        assertEquals(2, Request.testAllStatus(none).length);
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> Request.waitAll(new Request[] {MPI.REQUEST_NULL, null}));
        assertTrue(npe.getMessage().contains("request 1 is null"), npe.getMessage());
    }

    @Test
    void waitAndTestNullTheHandleGetStatusDoesNot() throws MPIException {
        CompletableFuture<Status> f = new CompletableFuture<>();
        Request r = later(f);
        assertFalse(r.isNull());
        assertFalse(r.test());
        assertNull(r.testStatus());
        assertNull(r.getStatus());
        MPIException inFlight = assertThrows(MPIException.class, r::free);
        assertEquals(MPI.ERR_REQUEST, inFlight.getErrorClass());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, r::cancel).getErrorClass());
        f.complete(Status.of(3, 7, MPI.SUCCESS, 12));
        Status looked = r.getStatus();
        assertEquals(3, looked.getSource());
        assertFalse(r.isNull()); // getStatus leaves the handle
        Status s = r.waitStatus();
        assertTrue(r.isNull());
        assertEquals(7, s.getTag());
        assertEquals(3, s.getCount(MPI.INT));
        assertEquals(12, s.getCount(MPI.BYTE));
        assertEquals(MPI.UNDEFINED, s.getCount(MPI.LONG));
        assertEquals(6, s.getElements(MPI.SHORT));
        assertEquals(MPI.UNDEFINED, s.getElements(Datatype.createContiguous(2, MPI.LONG)));
        assertEquals(3, s.getElementsX(MPI.INT).getCount());
        r.free(); // null now: nothing
    }

    @Test
    void aFailureGoesToTheHandlerAndNullsTheRequest() throws MPIException {
        CompletableFuture<Status> f = new CompletableFuture<>();
        Request r = later(f);
        f.completeExceptionally(new IllegalStateException("the peer went away"));
        MPIException e = assertThrows(MPIException.class, r::waitFor);
        assertEquals(MPI.ERR_OTHER, e.getErrorClass());
        assertTrue(e.getMessage().contains("test op on rank 0 of MPI_COMM_WORLD failed: the peer went away"), e.getMessage());
        assertTrue(r.isNull());
    }

    @Test
    void arraysOfRequests() throws MPIException {
        CompletableFuture<Status> a = new CompletableFuture<>();
        CompletableFuture<Status> b = new CompletableFuture<>();
        CompletableFuture<Status> c = new CompletableFuture<>();
        Request[] rs = {later(a), MPI.REQUEST_NULL, later(b), later(c)};
        assertEquals(MPI.UNDEFINED, Request.testAny(rs));
        assertNull(Request.testAnyStatus(rs));
        assertEquals(0, Request.testSome(rs).length);
        assertEquals(0, Request.testSomeStatus(rs).length);
        assertFalse(Request.testAll(rs));
        assertNull(Request.testAllStatus(rs));
        b.complete(Status.of(1, 2, MPI.SUCCESS, 4));
        c.complete(null);
        // waitAny reports the lowest finished one only; testAll changed nothing meanwhile
        Status any = Request.waitAnyStatus(rs);
        assertEquals(2, any.getIndex());
        assertEquals(2, any.getTag());
        assertTrue(rs[2].isNull());
        assertFalse(rs[3].isNull());
        assertArrayEquals(new int[] {3}, Request.waitSome(rs));
        assertTrue(rs[3].isNull());
        // waitAll finishes when a thread completes the last one later
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            a.complete(Status.of(0, 9, MPI.SUCCESS, 0));
        });
        Status[] all = Request.waitAllStatus(rs);
        assertEquals(4, all.length);
        assertEquals(9, all[0].getTag());
        assertEquals(MPI.ANY_TAG, all[2].getTag()); // null by then: an empty status
        for (Request r : rs) {
            assertTrue(r.isNull());
        }
        assertTrue(Request.testAll(rs));
        Thread.interrupted();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        // testSome reports every finished one, with indices in the statuses
        CompletableFuture<Status> d = CompletableFuture.completedFuture(null);
        CompletableFuture<Status> e = CompletableFuture.completedFuture(null);
        Request[] two = {later(new CompletableFuture<>()), later(d), later(e)};
        Status[] some = Request.testSomeStatus(two);
        assertEquals(2, some.length);
        assertEquals(1, some[0].getIndex());
        assertEquals(2, some[1].getIndex());
        // A request listed twice (erroneous in MPI) is reported once, at its first index, not with a stray slot.
        Request twice = later(CompletableFuture.completedFuture(null));
        assertArrayEquals(new int[] {0}, Request.waitSome(new Request[] {twice, twice}));
        Request again = later(CompletableFuture.completedFuture(null));
        Status[] once = Request.testSomeStatus(new Request[] {again, again});
        assertEquals(1, once.length);
        assertEquals(0, once[0].getIndex());
    }

    @Test
    void nonBlockingCollectivesOnDirectAndHeapBuffers() throws MPIException {
        // direct, as the bindings demand
        IntBuffer in = MPI.newIntBuffer(3).put(0, 4).put(1, 5).put(2, 6);
        IntBuffer out = MPI.newIntBuffer(3);
        Request r = MPI.COMM_WORLD.iAllReduce(in, out, 3, MPI.INT, MPI.SUM);
        r.waitFor();
        assertTrue(r.isNull());
        assertEquals(6, out.get(2));
        // heap buffers over arrays (the bindings refuse them): copied in at the start, out at the end
        int[] send = {1, 2, 3};
        int[] recv = new int[3];
        r = MPI.COMM_WORLD.iAllReduce(IntBuffer.wrap(send), IntBuffer.wrap(recv), 3, MPI.INT, MPI.MAX);
        send[0] = 99; // the send data was taken when the call started
        r.waitFor();
        assertArrayEquals(new int[] {1, 2, 3}, recv);
        // an offset through MPI.slice, in place
        double[] d = {9, 1.5, 2.5};
        MPI.COMM_WORLD.iAllReduce(MPI.slice(d, 1), 2, MPI.DOUBLE, MPI.SUM).waitFor();
        assertArrayEquals(new double[] {9, 1.5, 2.5}, d);
        // a heap ByteBuffer is used in place
        byte[] bytes = {1, 2, 3, 4};
        byte[] all = new byte[4];
        MPI.COMM_WORLD.iAllGather(ByteBuffer.wrap(bytes), 4, MPI.BYTE, ByteBuffer.wrap(all), 4, MPI.BYTE).waitFor();
        assertArrayEquals(bytes, all);
        // a derived type with gaps: only its type map is written
        Datatype every2 = Datatype.createVector(2, 1, 2, MPI.INT);
        every2.commit();
        int[] v = {7, -1, 8, -1};
        int[] w = {0, 55, 0, 55};
        MPI.COMM_WORLD.iAllToAll(IntBuffer.wrap(v), 1, every2, IntBuffer.wrap(w), 1, every2).waitFor();
        assertArrayEquals(new int[] {7, 55, 8, 55}, w);
        // the rest of the provided forms, each finished by a different wait or test
        int[] g = new int[2];
        Request[] rs = {
                MPI.COMM_WORLD.iBarrier(),
                MPI.COMM_WORLD.iBcast(IntBuffer.wrap(new int[2]), 2, MPI.INT, 0),
                MPI.COMM_WORLD.iGather(IntBuffer.wrap(new int[] {3, 4}), 2, MPI.INT, IntBuffer.wrap(g), 2, MPI.INT, 0),
                MPI.COMM_WORLD.iGather(IntBuffer.wrap(new int[2]), 2, MPI.INT, 0),
                MPI.COMM_WORLD.iAllGather(IntBuffer.wrap(new int[2]), 2, MPI.INT),
                MPI.COMM_WORLD.iAllGatherv(IntBuffer.wrap(new int[] {5}), 1, MPI.INT, IntBuffer.wrap(new int[3]),
                        new int[] {1}, new int[] {2}, MPI.INT),
                MPI.COMM_WORLD.iAllGatherv(IntBuffer.wrap(new int[3]), new int[] {1}, new int[] {2}, MPI.INT),
                MPI.COMM_WORLD.iReduceScatter(IntBuffer.wrap(new int[] {6, 7}), IntBuffer.wrap(new int[2]),
                        new int[] {2}, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iReduceScatter(IntBuffer.wrap(new int[2]), new int[] {2}, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iAllReduce(DoubleBuffer.wrap(new double[1]), 1, MPI.DOUBLE, MPI.SUM),
                MPI.COMM_SELF.iAllReduce(IntBuffer.wrap(new int[1]), 1, MPI.INT, MPI.SUM)};
        Request.waitAll(rs);
        assertArrayEquals(new int[] {3, 4}, g);
        int[] gv = new int[3];
        MPI.COMM_WORLD.iAllGatherv(IntBuffer.wrap(new int[] {5}), 1, MPI.INT, IntBuffer.wrap(gv), new int[] {1},
                new int[] {2}, MPI.INT).waitFor();
        assertArrayEquals(new int[] {0, 0, 5}, gv);
        int[] rsOut = new int[2];
        MPI.COMM_WORLD.iReduceScatter(IntBuffer.wrap(new int[] {6, 7}), IntBuffer.wrap(rsOut), new int[] {2}, MPI.INT,
                MPI.SUM).waitFor();
        assertArrayEquals(new int[] {6, 7}, rsOut);
    }

    @Test
    void aUserOpOnAnOddSizedTypeIsFoldedWhenTheAllGatherFinishes() throws MPIException {
        Datatype three = Datatype.createContiguous(3, MPI.INT);
        three.commit();
        Op negate = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                int[] io = (int[]) inOut;
                for (int i = 0; i < count * 3; i++) {
                    io[i] = -io[i];
                }
            }
        }, true);
        int[] buf = {1, 2, 3};
        Request r = MPI.COMM_WORLD.iAllReduce(IntBuffer.wrap(buf), 1, three, negate);
        r.waitFor();
        assertArrayEquals(new int[] {1, 2, 3}, buf); // one contribution: nothing to combine
    }

    /** The non-blocking v-forms on one rank (decision 0109): root forms, in place, and the wrong form at the root. */
    @Test
    void theVFormsOnOneRank() throws MPIException {
        int[] got = {-1, -1, -1};
        MPI.COMM_WORLD.iGatherv(IntBuffer.wrap(new int[] {5, 6}), 2, MPI.INT, IntBuffer.wrap(got), new int[] {2},
                new int[] {1}, MPI.INT, 0).waitFor();
        assertArrayEquals(new int[] {-1, 5, 6}, got);
        int[] inPlace = {7, 8, 9};
        MPI.COMM_WORLD.iGatherv(IntBuffer.wrap(inPlace), new int[] {2}, new int[] {1}, MPI.INT, 0).waitFor();
        assertArrayEquals(new int[] {7, 8, 9}, inPlace);
        int[] piece = new int[2];
        MPI.COMM_WORLD.iScatterv(IntBuffer.wrap(new int[] {1, 2, 3}), new int[] {2}, new int[] {1}, MPI.INT,
                IntBuffer.wrap(piece), 2, MPI.INT, 0).waitFor();
        assertArrayEquals(new int[] {2, 3}, piece);
        MPI.COMM_WORLD.iScatterv(IntBuffer.wrap(new int[] {1, 2, 3}), new int[] {2}, new int[] {1}, MPI.INT, 0)
                .waitFor();
        int[] to = new int[3];
        MPI.COMM_WORLD.iAllToAllv(IntBuffer.wrap(new int[] {4, 5, 6}), new int[] {2}, new int[] {1}, MPI.INT,
                IntBuffer.wrap(to), new int[] {2}, new int[] {0}, MPI.INT).waitFor();
        assertArrayEquals(new int[] {5, 6, 0}, to);
        int[] w = new int[3];
        MPI.COMM_WORLD.iAllToAllw(IntBuffer.wrap(new int[] {4, 5, 6}), new int[] {1}, new int[] {8},
                new Datatype[] {MPI.INT}, IntBuffer.wrap(w), new int[] {1}, new int[] {4}, new Datatype[] {MPI.INT})
                .waitFor();
        assertArrayEquals(new int[] {0, 6, 0}, w);
        IntBuffer b = MPI.newIntBuffer(4);
        for (Executable x : new Executable[] {
                () -> MPI.COMM_WORLD.iGatherv(b, 1, MPI.INT, 0),
                () -> MPI.COMM_WORLD.iScatterv(b, 1, MPI.INT, 0)}) {
            assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class, x::run).getErrorClass());
        }
    }

    @Test
    void reductionsScansAndScatterOnOneRank() throws MPIException {
        int[] out = new int[2];
        Request[] rs = {
                MPI.COMM_WORLD.iReduce(IntBuffer.wrap(new int[] {1, 2}), IntBuffer.wrap(out), 2, MPI.INT, MPI.SUM, 0),
                MPI.COMM_WORLD.iReduce(IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM, 0),
                MPI.COMM_WORLD.iReduceScatterBlock(IntBuffer.wrap(new int[2]), IntBuffer.wrap(new int[2]), 2, MPI.INT,
                        MPI.SUM),
                MPI.COMM_WORLD.iReduceScatterBlock(IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iScatter(IntBuffer.wrap(new int[2]), 2, MPI.INT, IntBuffer.wrap(new int[2]), 2, MPI.INT, 0),
                MPI.COMM_WORLD.iScatter(IntBuffer.wrap(new int[2]), 2, MPI.INT, 0),
                MPI.COMM_WORLD.iScan(IntBuffer.wrap(new int[2]), IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iScan(IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iExScan(IntBuffer.wrap(new int[2]), IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM),
                MPI.COMM_WORLD.iExScan(IntBuffer.wrap(new int[2]), 2, MPI.INT, MPI.SUM)};
        Request.waitAll(rs);
        assertArrayEquals(new int[] {1, 2}, out);
        int[] kept = {5, 6};
        MPI.COMM_WORLD.iExScan(IntBuffer.wrap(new int[] {1, 1}), IntBuffer.wrap(kept), 2, MPI.INT, MPI.SUM).waitFor();
        assertArrayEquals(new int[] {5, 6}, kept); // rank 0's left as it was
        int[] scattered = new int[1];
        MPI.COMM_WORLD.iScatter(IntBuffer.wrap(new int[] {8}), 1, MPI.INT, IntBuffer.wrap(scattered), 1, MPI.INT, 0)
                .waitFor();
        assertArrayEquals(new int[] {8}, scattered);
    }

    @FunctionalInterface
    private interface Executable {
        void run() throws MPIException;
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingStarts() {
        IntBuffer small = MPI.newIntBuffer(2);
        assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.iBcast(small, 1, MPI.INT, 3)).getErrorClass());
        assertEquals(MPI.ERR_COUNT, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.iAllReduce(small, small, -1, MPI.INT, MPI.SUM)).getErrorClass());
        assertEquals(MPI.ERR_BUFFER, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.iAllReduce(DoubleBuffer.wrap(new double[2]), 2, MPI.INT, MPI.SUM)).getErrorClass());
        assertThrows(IndexOutOfBoundsException.class, () -> MPI.COMM_WORLD.iAllReduce(small, 3, MPI.INT, MPI.SUM));
    }

    @Test
    void persistentRequestsStartAgainAfterEachWait() throws MPIException {
        IntBuffer buf = MPI.newIntBuffer(1).put(0, 1);
        int[] starts = {0};
        Prequest p = new Prequest(MPI.COMM_WORLD, "allReduce x2", () -> {
            starts[0]++;
            return MPI.COMM_WORLD.iAllReduce(buf, 1, MPI.INT, MPI.SUM).active();
        });
        assertFalse(p.isNull());
        p.waitFor(); // inactive: returns at once
        assertTrue(p.test());
        p.start();
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, p::start).getErrorClass());
        p.waitFor();
        assertFalse(p.isNull()); // inactive, not null
        Prequest.startAll(new Prequest[] {p});
        assertNotNull(Request.waitAllStatus(new Request[] {p}));
        assertEquals(2, starts[0]);
        p.free();
        assertTrue(p.isNull());
        assertEquals(MPI.ERR_REQUEST, assertThrows(MPIException.class, p::start).getErrorClass());
    }

    @Test
    void statusSetters() throws MPIException {
        Status s = Status.of(0, 0, MPI.SUCCESS, 0);
        s.setElements(MPI.INT, 5);
        assertEquals(5, s.getCount(MPI.INT));
        assertEquals(20, s.getCount(MPI.BYTE));
        s.setElementsX(MPI.DOUBLE, new Count(2));
        assertEquals(2, s.getElementsX(MPI.DOUBLE).getCount());
        assertFalse(s.isCancelled());
        s.setCancelled(true);
        assertTrue(s.isCancelled());
        Count c = new Count(3);
        c.setCount(4);
        assertEquals(new Count(4), c);
        assertEquals(0, c.compareTo(new Count(4)));
        assertSame(MPI.REQUEST_NULL, MPI.REQUEST_NULL);
    }
}
