package io.railcoll.bench.peer;

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

    @Test
    void truncatedOutputIsIncomplete() {
        PeerOutput out = PeerOutput.parse("info,ranks,2\nsample,allgather,2,1,1000,0\n");
        assertFalse(out.complete());
        assertTrue(out.samplesBySize().isEmpty());
        assertTrue(out.iterationsBySize().isEmpty());
        assertEquals(List.of("sample,allgather,2,1,1000,0"), out.otherLines());
    }
}
