package io.railcoll.bench.apps;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NbodySimulationTest {
    private static final double DT = 1e-3;
    private static final double EPS = 0.05;

    private static NbodyTotals totals(NbodyState s) {
        return NbodyTotals.sum(s.localTotals().toArray(), 1);
    }

    @Test
    void referenceRunConservesMomentumAndEnergy() {
        Bodies b = Bodies.generate(200, 1);
        NbodyState s = NbodyState.start(b, new BlockSplit(200, 1), 0, EPS);
        NbodyTotals start = totals(s);
        NbodySimulation.run(s, 50, DT, (send, all, step) -> System.arraycopy(send, 0, all, 0, send.length));
        NbodyTotals end = totals(s);
        assertTrue(end.momentumDrift(start) < 1e-14, "momentum drift " + end.momentumDrift(start));
        assertTrue(end.energyDrift(start) < 1e-7, "energy drift " + end.energyDrift(start));
        // The bodies moved: a simulation that does nothing would pass the conservation checks too.
        assertNotNull(StateDiff.describe(s.globalState(), NbodyState.start(b, new BlockSplit(200, 1), 0, EPS).globalState()));
    }

    /** Runs the parallel loop on {@code ranks} in-process ranks, all-gathering like the app; returns rank 0's view. */
    private static double[] parallel(Bodies b, int ranks, int steps, int corruptStep) {
        BlockSplit split = new BlockSplit(b.count(), ranks);
        List<double[]> states = InProcessGroup.run(ranks, comm -> {
            NbodyState s = NbodyState.start(b, split, comm.rank(), EPS);
            TimedCollectives timed = new TimedCollectives(comm, AlgorithmChoice.automatic(Collective.ALLGATHER));
            NbodySimulation.run(s, steps, DT, (send, all, step) -> {
                timed.allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(all));
                if (step == corruptStep && comm.rank() == ranks - 1) {
                    all[0] += 1.0;
                }
            });
            double[] blocks = new double[6 * split.block() * ranks];
            Staging.allgather(comm, MemorySegment.ofArray(s.finalBlock()), MemorySegment.ofArray(blocks));
            return NbodyState.unpad(split, blocks);
        });
        for (double[] s : states) {
            assertNull(StateDiff.describe(states.getFirst(), s), "ranks disagree");
        }
        return states.getFirst();
    }

    @Test
    void parallelRunsReproduceTheReferenceBitForBit() {
        Bodies b = Bodies.generate(23, 9);
        double[] reference = NbodySimulation.reference(b, 6, DT, EPS);
        for (int ranks : new int[] {1, 2, 5, 30}) {
            assertNull(StateDiff.describe(reference, parallel(b, ranks, 6, 0)), ranks + " ranks");
        }
    }

    @Test
    void aCorruptedExchangeIsVisibleInTheResult() {
        Bodies b = Bodies.generate(23, 9);
        double[] reference = NbodySimulation.reference(b, 6, DT, EPS);
        String diff = StateDiff.describe(reference, parallel(b, 3, 6, 4));
        assertNotNull(diff);
        assertTrue(diff.startsWith("body "), diff);
    }

    @Test
    void driftsOfASystemAtRestAreAbsolute() {
        NbodyTotals rest = new NbodyTotals(0, 0, 0, 0, 0, 0);
        assertEquals(0.0, rest.momentumDrift(rest));
        assertEquals(0.0, rest.energyDrift(rest));
        NbodyTotals moved = new NbodyTotals(3e-3, 4e-3, 0, 0, 0, 0);
        assertEquals(5e-3, moved.momentumDrift(rest), 1e-18);
        NbodyTotals start = new NbodyTotals(0, 0, 0, 1.0, -2.0, 1.0);
        NbodyTotals end = new NbodyTotals(0, 0, 1e-3, 1.001, -2.0, 1.0);
        assertEquals(1e-3, end.momentumDrift(start), 1e-15);
        assertEquals(1e-3, end.energyDrift(start), 1e-12);
    }

    @Test
    void oneBodyStaysAtRest() {
        double[] reference = NbodySimulation.reference(Bodies.generate(1, 4), 3, DT, EPS);
        assertNull(StateDiff.describe(reference, parallel(Bodies.generate(1, 4), 3, 3, 0)));
    }

    @Test
    void stateDiffNamesTheFirstDifference() {
        double[] a = new double[12];
        double[] b = a.clone();
        assertNull(StateDiff.describe(a, b));
        b[3 * 2 + 4] = 1.5;
        assertEquals("body 1 velocity y is 1.5, expected 0.0 (1 of 12 values differ)", StateDiff.describe(a, b));
        b[4] = -0.0;
        assertTrue(StateDiff.describe(a, b).startsWith("body 1 position y is -0.0"), "signed zeros differ in bits");
    }
}
