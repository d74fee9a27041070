package io.railcoll.engine;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.Reduction;
import io.railcoll.reduce.UserOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine runs Reduce steps on real memory with the call's {@link Reduction}, refuses a combining program
 * without one (or with an element type its ranges do not divide) before running anything, and allocates nothing
 * for a Reduce step: a program with Reduce steps allocates per call what the same program with Copy steps does.
 * One rank, so the program is local ops only and no transport is needed.
 */
class EngineReduceTest {
    private static final int INTS = 1000;
    private static final long B = INTS * 4L;
    private static final Shape SHAPE = new Shape(Collective.ALLGATHER, Placement.uniform(1, 1), 1, B, 0);

    private CollectiveEngine engine;
    private Arena arena;
    private MemorySegment send;
    private MemorySegment recv;

    /** RECV = SEND, TEMP = SEND, then RECV = TEMP op RECV (or, with copies, RECV = TEMP). */
    private static Algorithm program(boolean reduce) {
        return new Algorithm() {
            @Override
            public String id() {
                return reduce ? "test.reduce" : "test.copy";
            }

            @Override
            public Collective collective() {
                return Collective.ALLGATHER;
            }

            @Override
            public RankProgram program(Shape shape, int rank) {
                long b = shape.blockBytes();
                Op last = reduce ? new Op.Reduce(Buffer.TEMP, 0, Buffer.RECV, 0, b) : new Op.Copy(Buffer.TEMP, 0, Buffer.RECV, 0, b);
                return new RankProgram(rank, List.of(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, b),
                        new Op.Copy(Buffer.SEND, 0, Buffer.TEMP, 0, b), last), b);
            }

            @Override
            public String summary() {
                return "test program";
            }
        };
    }

    @BeforeEach
    void open() {
        engine = new CollectiveEngine(0, Placement.uniform(1, 1), TimeUnit.SECONDS.toNanos(10));
        engine.attach(new Transport[1], new Transport[0], null);
        arena = Arena.ofConfined();
        send = arena.allocate(B);
        recv = arena.allocate(B);
        for (int i = 0; i < INTS; i++) {
            send.setAtIndex(JAVA_INT_UNALIGNED, i, i - 500);
        }
    }

    @AfterEach
    void close() {
        engine.close();
        arena.close();
    }

    @Test
    void aReduceStepCombinesWithTheCallsOperator() {
        engine.run(program(true), SHAPE, send, recv, Reduction.of(ElementType.INT, PredefinedOperator.SUM));
        for (int i = 0; i < INTS; i++) {
            assertEquals(2 * (i - 500), recv.getAtIndex(JAVA_INT_UNALIGNED, i));
        }
        engine.run(program(true), SHAPE, send, recv, Reduction.of(ElementType.INT, PredefinedOperator.MAX));
        assertEquals(-500, recv.getAtIndex(JAVA_INT_UNALIGNED, 0));
        // TEMP is the left operand: 2 * TEMP + RECV.
        UserOperator twiceLeftPlusRight = new UserOperator("2x+y", false, (in, io, inout, oo, count) -> {
            for (long i = 0; i < count; i++) {
                inout.set(JAVA_INT_UNALIGNED, oo + 4 * i,
                        2 * in.get(JAVA_INT_UNALIGNED, io + 4 * i) + inout.get(JAVA_INT_UNALIGNED, oo + 4 * i));
            }
        });
        engine.run(program(true), SHAPE, send, recv, Reduction.of(ElementType.INT, twiceLeftPlusRight));
        assertEquals(3 * 7, recv.getAtIndex(JAVA_INT_UNALIGNED, 507));
    }

    @Test
    void aCombiningProgramNeedsAFittingReduction() {
        recv.fill((byte) 9);
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> engine.run(program(true), SHAPE, send, recv));
        assertTrue(none.getMessage().contains("test.reduce combines data but the call passed no element type"),
                none.getMessage());
        Shape odd = new Shape(Collective.ALLGATHER, Placement.uniform(1, 1), 1, 12, 0);
        IllegalArgumentException misfit = assertThrows(IllegalArgumentException.class, () -> engine.run(program(true),
                odd, send, recv, Reduction.of(ElementType.DOUBLE, PredefinedOperator.SUM)));
        assertTrue(misfit.getMessage().contains("not whole DOUBLE elements (8 bytes each)"), misfit.getMessage());
        assertEquals(9, recv.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0), "nothing ran");
        // The engine is still usable after a refused call.
        engine.run(program(true), SHAPE, send, recv, Reduction.of(ElementType.INT, PredefinedOperator.SUM));
        assertEquals(-1000, recv.getAtIndex(JAVA_INT_UNALIGNED, 0));
    }

    @Test
    void aReduceStepAllocatesNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Reduction sum = Reduction.of(ElementType.INT, PredefinedOperator.SUM);
        Algorithm reduce = program(true);
        Algorithm copy = program(false);
        int calls = 5000;
        long[] perCall = new long[2];
        // With the Vector API module (the test JVMs have it) the combine is a vector kernel, which allocates until C2
        // has compiled it; on a loaded host that can take far longer than a few rounds (CI at load 24: 924 bytes a
        // call after three). So rounds run against a deadline, not a count: a call that still allocates then fails.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(150);
        int rounds = 0;
        do {
            long t0 = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < calls; i++) {
                engine.run(copy, SHAPE, send, recv);
            }
            long t1 = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < calls; i++) {
                engine.run(reduce, SHAPE, send, recv, sum);
            }
            long t2 = threads.getCurrentThreadAllocatedBytes();
            perCall[0] = (t1 - t0) / calls;
            perCall[1] = (t2 - t1) / calls;
            rounds++;
        } while ((rounds < 3 || perCall[1] > perCall[0]) && System.nanoTime() < deadline);
        // Measured after at least two warm rounds; a call's own bookkeeping is the same for both programs.
        assertTrue(perCall[1] <= perCall[0], "a call with a Reduce step allocated " + perCall[1]
                + " bytes, the same call with a Copy step " + perCall[0] + ", after " + rounds + " rounds");
    }
}
