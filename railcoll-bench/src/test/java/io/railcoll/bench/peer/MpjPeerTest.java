package io.railcoll.bench.peer;

import io.railcoll.bench.report.BenchResult;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** MPJ Express's multicore device, for real, when Debian's libmpj-java and its jars are installed. */
class MpjPeerTest {


    static MpjPeer mpj() {
        try {
            return MpjPeer.locate();
        } catch (PeerException e) {
            assumeTrue(false, e.getMessage());
            throw e;
        }
    }

    @Test
    void runsEveryCollectiveOnTheMulticoreDeviceWithItsBytesChecked() {
        MpjPeer peer = mpj();
        for (Collective collective : Collective.values()) {
            if (!MpjPeer.runs(collective)) {
                continue; // PeerRun or MpjPeer refuses it
            }
            PeerRun run = PeerRun.builder(collective, Placement.singleNode(3), OpenMpiPeerTest.sizesFor(collective))
                    .counts(2, 10, 1, 4).samples(2).check(true).timeout(Duration.ofMinutes(2)).build();
            PeerResults got = peer.runOnThisHost(run);
            List<Long> expected = collective == Collective.BARRIER ? List.of(0L) : OpenMpiPeerTest.sizesFor(collective);
            assertEquals(expected, got.results().stream().map(BenchResult::sizeBytes).toList(), collective.id());
            for (BenchResult r : got.results()) {
                assertEquals(MpjPeer.NAME, r.series().algorithm());
                assertEquals(2, r.samples());
                // Timed with nanoTime, not MPJ's millisecond MPI.Wtime: a 1-byte call is not 0 or 1000 us exactly.
                assertTrue(r.latencyUsMedian() > 0, r.toString());
            }
            assertTrue(got.identity().startsWith("MPJ Express ") && !got.identity().contains("unknown version"), got.identity());
        }
    }

    @Test
    void itsPrivateHomeHoldsTheJarsDebianLeftOut() {
        MpjPeer peer = mpj();
        var lib = peer.privateHome().resolve("lib");
        for (String jar : List.of("log4j-1.2.jar", "commons-cli.jar", "commons-io.jar", "commons-codec.jar", "mpj.jar",
                "starter.jar")) {
            assertTrue(Files.isRegularFile(lib.resolve(jar)), lib.resolve(jar).toString());
        }
        // Copies, not links: a jar's Class-Path is resolved against where the jar really is.
        assertTrue(!Files.isSymbolicLink(lib.resolve("starter.jar")));
    }
}
