package io.railcoll.bench.peer;

import io.railcoll.bench.report.AddedToBarrier;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.TimedReduction;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class OpenMpiPeerTest {
    static final List<Long> SIZES = List.of(1L, 1024L, 65537L);
    /** All-reduce sums doubles: whole doubles, one of them (8 bytes), an odd count of them and a large vector. */
    static final List<Long> REDUCTION_SIZES = List.of(8L, 1032L, 65544L);

    static List<Long> sizesFor(Collective collective) {
        return collective.reduces() ? REDUCTION_SIZES : SIZES;
    }

    @Test
    void missingOpenMpiIsAMessageNotAnException(@TempDir Path dir) {
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(dir, List.of(dir.resolve("empty")));
        assertTrue(lookup.peer().isEmpty());
        assertEquals(OpenMpiPeer.NOT_INSTALLED, lookup.message());
    }

    @Test
    void anotherMpiIsNotMistakenForOpenMpi(@TempDir Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("mpicc"), "exit 0");
        script(bin.resolve("mpirun"), "echo 'HYDRA build details:'");
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(dir, List.of(bin));
        assertTrue(lookup.peer().isEmpty());
        assertTrue(lookup.message().contains("is not Open MPI's") && lookup.message().endsWith(OpenMpiPeer.NOT_INSTALLED),
                lookup.message());
    }

    /** A linked directory on the PATH (merged /usr's /bin) gives mpirun in the directory it links to. */
    @Test
    void mpirunIsTakenFromItsDirectorysRealPath(@TempDir Path dir) throws IOException {
        Path bin = fakeToolchain(dir, "exit 0");
        Path link = Files.createSymbolicLink(dir.resolve("linked-bin"), bin);
        OpenMpiPeer peer = OpenMpiPeer.locate(dir.resolve("cache"), List.of(link)).peer().orElseThrow();
        assertEquals(bin.toRealPath().resolve("mpirun"), peer.mpirun());
    }

    @Test
    void aHungRunIsKilledAtItsDeadline(@TempDir Path dir) throws IOException {
        Path bin = fakeToolchain(dir, "sleep 60");
        OpenMpiPeer peer = OpenMpiPeer.locate(dir.resolve("cache"), List.of(bin)).peer().orElseThrow();
        PeerRun run = PeerRun.builder(Collective.ALLGATHER, Placement.singleNode(2), SIZES)
                .timeout(Duration.ofMillis(500)).build();
        PeerException e = assertThrows(PeerException.class, () -> peer.run(run));
        assertTrue(e.getMessage().contains("did not finish within"), e.getMessage());
    }

    @Test
    void wrongBytesAreAnErrorNamingTheSizes(@TempDir Path dir) throws IOException {
        Path bin = fakeToolchain(dir, "printf 'check,allgather,2,1024,FAILED,1\\nsample,allgather,2,1024,10,0,1.5\\n"
                + "done,allgather,2\\n'; echo 'rank 1: 7 wrong bytes' >&2; exit 3");
        OpenMpiPeer peer = OpenMpiPeer.locate(dir.resolve("cache"), List.of(bin)).peer().orElseThrow();
        PeerException e = assertThrows(PeerException.class,
                () -> peer.run(PeerRun.of(Collective.ALLGATHER, Placement.singleNode(2), List.of(1024L))));
        assertTrue(e.getMessage().contains("wrong bytes at 1024 bytes (on 1 of 2 ranks)"), e.getMessage());
        assertTrue(e.getMessage().contains("rank 1: 7 wrong bytes"), e.getMessage());
    }

    /** The real thing, when Open MPI is installed: 2 ranks, every collective, a few sizes, bytes checked. */
    @Test
    void runsTheCBenchmarkUnderMpirun(@TempDir Path dir) throws IOException {
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(dir);
        assumeTrue(lookup.peer().isPresent(), lookup.message());
        OpenMpiPeer peer = lookup.peer().get();

        Path binary = peer.build();
        FileTime built = Files.getLastModifiedTime(binary);
        assertEquals(binary, peer.build(), "an unchanged source is not rebuilt");
        assertEquals(built, Files.getLastModifiedTime(binary));

        for (Collective collective : Collective.values()) {
            if (!TimedReduction.peersRun(collective)) {
                continue; // PeerRun refuses it
            }
            PeerRun run = PeerRun.builder(collective, Placement.singleNode(2), sizesFor(collective))
                    .counts(5, 30, 2, 10).samples(3).check(true).timeout(Duration.ofSeconds(60)).build();
            List<BenchResult> results = peer.run(run);
            List<Long> expectedSizes = collective == Collective.BARRIER ? List.of(0L) : sizesFor(collective);
            assertEquals(expectedSizes, results.stream().map(BenchResult::sizeBytes).toList(), collective.id());
            for (BenchResult r : results) {
                assertEquals(OpenMpiPeer.NAME, r.series().algorithm());
                assertEquals(collective, r.series().collective());
                assertEquals(3, r.samples());
                assertTrue(r.latencyUsMin() <= r.latencyUsMedian() && r.latencyUsMedian() <= r.latencyUsMax());
            }
        }
    }

    /** Decision 0232: the figure added to a barrier loop, as the program prints it, reaches the results. */
    @Test
    void theAddedFigureReachesTheResults(@TempDir Path dir) throws IOException {
        Path bin = fakeToolchain(dir, "printf 'sample,gather,2,1,1000,0,0.9,0.3\\nsample,gather,2,1,1000,1,0.8,0.2\\n"
                + "sample,gather,2,1,1000,2,0.7,-0.1\\nsample,gather,2,65536,100,0,9.5\\ndone,gather,2\\n'");
        OpenMpiPeer peer = OpenMpiPeer.locate(dir.resolve("cache"), List.of(bin)).peer().orElseThrow();
        List<BenchResult> results = peer.run(PeerRun.builder(Collective.GATHER, Placement.singleNode(2),
                List.of(1L, 65536L)).addedToBarrierBelowBytes(8192).build());
        assertEquals(new AddedToBarrier(0.2, -0.1, 0.3), results.getFirst().addedToBarrier().orElseThrow());
        assertTrue(results.get(1).addedToBarrier().isEmpty());
    }

    /**
     * The real program, when Open MPI is installed: below the cap every sample carries what a call adds to a loop of
     * barriers, at and above it none, and the barrier never (decision 0232).
     */
    @Test
    void theCBenchmarkMeasuresTheAddedFigureBelowItsCap(@TempDir Path dir) {
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(dir);
        assumeTrue(lookup.peer().isPresent(), lookup.message());
        OpenMpiPeer peer = lookup.peer().get();
        PeerRun run = PeerRun.builder(Collective.BROADCAST, Placement.singleNode(2), List.of(1L, 1024L, 4096L))
                .counts(5, 40, 5, 40).samples(3).check(true).timeout(Duration.ofSeconds(60))
                .addedToBarrierBelowBytes(4096).build();
        PeerOutput out = peer.output(run);
        assertEquals(List.of(1L, 1024L), List.copyOf(out.addedBySize().keySet()), "below 4096 bytes only");
        assertEquals(3, out.addedBySize().get(1L).count(), "one figure per sample");
        List<BenchResult> results = peer.run(run);
        assertTrue(results.get(0).addedToBarrier().isPresent() && results.get(1).addedToBarrier().isPresent());
        assertTrue(results.get(2).addedToBarrier().isEmpty());
        PeerRun barrier = PeerRun.builder(Collective.BARRIER, Placement.singleNode(2), List.of())
                .counts(5, 40, 5, 40).samples(2).timeout(Duration.ofSeconds(60)).addedToBarrierBelowBytes(4096).build();
        assertTrue(peer.output(barrier).addedBySize().isEmpty(), "a barrier's own figure is already one of loops");
    }

    /**
     * With a budget the calls per sample are railcoll bench's: cut to what fits it, never more than the counts. The
     * real program, when Open MPI is installed.
     */
    @Test
    void aBudgetCutsTheCallsPerSampleToWhatFitsIt(@TempDir Path dir) {
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(dir);
        assumeTrue(lookup.peer().isPresent(), lookup.message());
        OpenMpiPeer peer = lookup.peer().get();
        PeerRun fixed = PeerRun.builder(Collective.ALLGATHER, Placement.singleNode(2), List.of(1L, 65537L, 1L << 20))
                .counts(8, 40, 8, 40).samples(2).timeout(Duration.ofSeconds(60)).build();
        assertEquals(Map.of(1L, 40, 65537L, 40, 1L << 20, 40), peer.output(fixed).iterationsBySize(), "no budget: the counts");
        // 1 us, the shortest budget: a 1-byte call may take under half of it (CI saw 2 calls fit), larger ones cannot.
        Map<Long, Integer> shortest = peer.output(fixed.toBuilder().budgetPerSample(Duration.ofNanos(1000)).build())
                .iterationsBySize();
        assertEquals(1, shortest.get(65537L), "a budget shorter than one call: one call per sample " + shortest);
        assertEquals(1, shortest.get(1L << 20), "a budget shorter than one call: one call per sample " + shortest);
        assertTrue(shortest.get(1L) < 40, "40 one-byte calls cannot fit 1 us: " + shortest);
        assertEquals(Map.of(1L, 40, 65537L, 40, 1L << 20, 40),
                peer.output(fixed.toBuilder().budgetPerSample(Duration.ofSeconds(30)).build()).iterationsBySize(),
                "a budget that fits every call: the counts");
    }

    /**
     * A fake toolchain: "mpicc" knows its version and writes an executable where -o says; "mpirun" knows
     * its version and otherwise runs {@code mpirunBody} in place of a job.
     */
    private static Path fakeToolchain(Path dir, String mpirunBody) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("mpicc"), """
                if [ "$1" = --showme:version ]; then echo 'mpicc: Open MPI 0.0-fake'; exit 0; fi
                while [ $# -gt 0 ] && [ "$1" != -o ]; do shift; done
                printf '#!/bin/sh\\n' > "$2"; chmod +x "$2"
                """);
        script(bin.resolve("mpirun"), "if [ \"$1\" = --version ]; then echo 'mpirun (Open MPI) 0.0-fake'; exit 0; fi\n"
                + mpirunBody);
        return bin;
    }

    private static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
