package io.railcoll.bench.peer;

import io.railcoll.bench.report.AddedToBarrier;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.Series;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerOutputTest {
    static final String OUTPUT = """
            info,library,"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022"
            info,ranks,2
            where,0,net:[4026532186],vm
            where,1,net:[4026532329],rcnode1
            check,allgather,2,1,ok
            sample,allgather,2,1,1000,0,0.434
            sample,allgather,2,1,1000,1,0.558
            sample,allgather,2,1,1000,2,0.438
            --------------------------------------------------------------------------
            WARNING: a notice from mpirun with "an unbalanced quote
            check,allgather,2,65537,FAILED,1
            sample,allgather,2,65537,100,0,6.224
            sample,allgather,2,65537,100,1,6.043
            rails,peer,65537,0,230,5000000,rail0,123,456
            done,allgather,2
            """;

    @Test
    void parsesEveryRecordType() {
        PeerOutput out = PeerOutput.parse(OUTPUT);
        assertEquals("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022", out.library());
        assertEquals("allgather", out.collective());
        assertEquals(2, out.ranks());
        assertEquals(List.of(new PeerOutput.Where(0, "net:[4026532186]", "vm"),
                new PeerOutput.Where(1, "net:[4026532329]", "rcnode1")), out.where());
        assertTrue(out.complete());
        assertEquals(List.of(new PeerOutput.Check(1, true, 0), new PeerOutput.Check(65537, false, 1)), out.checks());
        assertEquals(List.of(new PeerOutput.Check(65537, false, 1)), out.failedChecks());
        assertEquals(2, out.otherLines().size(), "mpirun's own lines are kept, not parsed");
        assertEquals(List.of("rails,peer,65537,0,230,5000000,rail0,123,456"), out.railLines());
        assertEquals(List.of(1L, 65537L), List.copyOf(out.samplesBySize().keySet()));
        assertEquals(java.util.Map.of(1L, 1000, 65537L, 100), out.iterationsBySize());
    }

    @Test
    void turnsSamplesIntoResults() {
        Series series = Series.of(Collective.ALLGATHER, "openmpi", Placement.singleNode(2), 1, "one-host shm");
        List<BenchResult> results = PeerOutput.parse(OUTPUT).results(series);
        assertEquals(2, results.size());
        BenchResult small = results.getFirst();
        assertEquals(1, small.sizeBytes());
        assertEquals(0.434, small.latencyUsMin(), 1e-9);
        assertEquals(0.438, small.latencyUsMedian(), 1e-9);
        assertEquals(0.558, small.latencyUsMax(), 1e-9);
        assertEquals(3, small.samples());
        assertEquals(2, results.get(1).samples());
        assertEquals(series, small.series());
    }

    /** Decision 0232: a sample line of a small size carries what a call adds to a loop of barriers as an 8th field. */
    @Test
    void theFigureAddedToABarrierLoopRidesInTheSampleLine() {
        PeerOutput out = PeerOutput.parse("""
                info,ranks,2
                sample,bcast,2,1,1000,0,0.706,0.240
                sample,bcast,2,1,1000,1,0.650,-0.031
                sample,bcast,2,1,1000,2,0.690,0.262
                sample,bcast,2,65536,100,0,6.224
                sample,bcast,2,65536,100,1,6.043
                done,bcast,2
                """);
        assertEquals(List.of(1L), List.copyOf(out.addedBySize().keySet()));
        Series series = Series.of(Collective.BROADCAST, "openmpi", Placement.singleNode(2), 1, "one-host shm");
        List<BenchResult> results = out.results(series);
        assertEquals(new AddedToBarrier(0.240, -0.031, 0.262), results.getFirst().addedToBarrier().orElseThrow());
        assertEquals(0.690, results.getFirst().latencyUsMedian(), 1e-9, "the OSU figure is the 7th field still");
        assertTrue(results.get(1).addedToBarrier().isEmpty(), "a large size has none");
        assertTrue(out.otherLines().isEmpty(), out.otherLines().toString());
    }

    @Test
    void aBadAddedFieldKeepsTheWholeLineOut() {
        PeerOutput out = PeerOutput.parse("sample,bcast,2,1,1000,0,0.706,nan\nsample,bcast,2,1,1000,1,0.7,x\n");
        assertTrue(out.samplesBySize().isEmpty());
        assertTrue(out.addedBySize().isEmpty());
        assertEquals(2, out.otherLines().size());
    }

    @Test
    void truncatedOutputIsIncomplete() {
        PeerOutput out = PeerOutput.parse("info,ranks,2\nsample,allgather,2,1,1000,0\n");
        assertFalse(out.complete());
        assertTrue(out.samplesBySize().isEmpty());
        assertTrue(out.iterationsBySize().isEmpty());
        assertEquals(List.of("sample,allgather,2,1,1000,0"), out.otherLines());
    }
}
