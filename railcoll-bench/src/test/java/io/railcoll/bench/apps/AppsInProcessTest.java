package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole apps, options to result file, on in-process ranks ({@link InProcessGroup}), whose all-to-all works, so
 * both key exchanges of the radix sort run here even while the catalog has no all-to-all algorithm.
 */
class AppsInProcessTest {
    /** In the in-process group every id is accepted by forceAlgorithm; it must exist in the catalog to parse. */
    private static final String ID = AlgorithmChoice.known().split(", ")[0];

    @TempDir
    Path dir;

    private AppResult runApp(RankApp app, int ranks, String... args) throws Exception {
        Path file = dir.resolve("result-" + System.nanoTime());
        List<String> a = new ArrayList<>(List.of(args));
        a.add("result=" + file);
        a.add("baseline=" + ID);
        InProcessGroup.run(ranks, comm -> {
            run(app, comm, a);
            return null;
        });
        return AppResult.read(file);
    }

    private static void run(RankApp app, Communicator comm, List<String> args) {
        try {
            app.run(comm, args);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void nbodyPassesItsChecksOnUnevenRanks() throws Exception {
        AppResult r = runApp(new NbodyApp(), 3, "bodies=20", "steps=4", "warmup=0", "algorithm=auto");
        assertTrue(r.checkPassed(), r.checks());
        assertTrue(r.checks().contains("single-process reference matches"), r.checks());
        assertEquals("nbody", r.app());
        assertEquals(3, r.ranks());
        assertEquals(ID, r.baseline().label());
        assertEquals("auto:allgather.in-process", r.compared().label());
        assertEquals(24 * 7, r.blockBytes());
        assertEquals(4, r.baseline().calls(), "one all-gather per step");
    }

    @Test
    void nbodyCorruptionFailsTheCheck() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> runApp(new NbodyApp(), 3, "bodies=20", "steps=4", "warmup=0", "algorithm=" + ID, "corrupt-step=2"));
        CheckFailedException cause = assertInstanceOf(CheckFailedException.class, e.getCause());
        assertTrue(cause.getMessage().startsWith("nbody check failed: rank 0: "), cause.getMessage());
        assertTrue(cause.getMessage().contains("compared " + ID + ": momentum not conserved"), cause.getMessage());
        assertTrue(cause.getMessage().contains("differs from the single-process reference"), cause.getMessage());
        assertFalse(cause.getMessage().contains("baseline " + ID + ":"), "the baseline run was not corrupted: " + cause.getMessage());
    }

    @Test
    void radixSortsWithEitherKeyExchange() throws Exception {
        for (String exchange : new String[] {"alltoall", "allgather"}) {
            AppResult r = runApp(new RadixApp(), 4, "keys=1001", "bits=64", "digit-bits=6", "warmup=0", "repeats=2",
                    "exchange=" + exchange, "algorithm=" + ID);
            assertTrue(r.checkPassed(), r.checks());
            assertTrue(r.checks().contains("sequential sort matches"), r.checks());
            assertEquals(4L << 6, r.blockBytes());
            // 11 passes of 6 bits, each one count all-gather and one key exchange.
            assertEquals(22, r.baseline().calls(), exchange);
        }
    }

    @Test
    void onlyTheCountAllgatherFollowsTheComparedChoice() {
        // 4 ranks x 100 keys: digit counts are 1 KiB blocks, keys 800-byte blocks.
        List<List<String>> logs = InProcessGroup.run(4, comm -> {
            TimedCollectives timed = new TimedCollectives(comm, new AlgorithmChoice(Collective.ALLGATHER, ID));
            BlockSplit split = new BlockSplit(400, 4);
            new RadixSorter(16, 8, split, comm.rank(), KeyRedistribution.of("allgather"), RadixSorter.Fault.NONE)
                    .sort(new KeySource(1, 16).keysOf(split, comm.rank()), timed);
            return InProcessGroup.allgatherLog(comm);
        });
        assertEquals(List.of(ID + " 1024", "auto 800", ID + " 1024", "auto 800"), logs.getFirst());
    }

    @Test
    void radixAutoExchangePicksAlltoallWhenItCanBeSelected() throws Exception {
        AppResult r = runApp(new RadixApp(), 2, "keys=50", "warmup=0", "algorithm=" + ID);
        assertTrue(r.problem().endsWith("keys moved by all-to-all"), r.problem());
    }

    @Test
    void radixCorruptionFailsTheCheck() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> runApp(new RadixApp(), 3, "keys=300", "warmup=0", "algorithm=" + ID, "corrupt-pass=3",
                        "reference-max-keys=0"));
        CheckFailedException cause = assertInstanceOf(CheckFailedException.class, e.getCause());
        // Without the reference sort the checksum alone must catch the changed key.
        assertTrue(cause.getMessage().contains("compared " + ID + ": the multiset of keys changed"), cause.getMessage());
    }

    @Test
    void badOptionsFailBeforeAnyCommunication() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> NbodyConfig.parse(List.of("bodys=5")));
        assertTrue(unknown.getMessage().contains("unknown option 'bodys'"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NbodyConfig.parse(List.of("steps=0")));
        assertThrows(IllegalArgumentException.class, () -> NbodyConfig.parse(List.of("dt=-1")));
        assertThrows(IllegalArgumentException.class, () -> RadixConfig.parse(List.of("bits=65")));
        assertThrows(IllegalArgumentException.class, () -> RadixConfig.parse(List.of("exchange=carrier-pigeon")));
        IllegalArgumentException alg = assertThrows(IllegalArgumentException.class,
                () -> RadixConfig.parse(List.of("algorithm=allgather.nonexistent")));
        assertTrue(alg.getMessage().contains(ID), "lists the known ids: " + alg.getMessage());
        Algorithm other = AlgorithmCatalog.standard().all().stream()
                .filter(a -> a.collective() != Collective.ALLGATHER).findFirst().orElseThrow();
        IllegalArgumentException kind = assertThrows(IllegalArgumentException.class, () -> AlgorithmChoice.parse(other.id()));
        assertTrue(kind.getMessage().contains("is a " + other.collective().id() + " algorithm"), kind.getMessage());
    }

    @Test
    void resultFileRoundTrips() throws Exception {
        AppResult r = new AppResult("radix", "2,1,2", 5, 2, "10 keys", "allgather", 1024,
                new RunTiming("allgather.ring", 2_000_000_000L, 1_000_000_000L, 900_000_000L, 8),
                new RunTiming("auto:allgather.bruck", 1_000_000_000L, 250_000_000L, 150_000_000L, 8), true, "fine = yes");
        Path f = dir.resolve("r.properties");
        r.write(f);
        assertEquals(r, AppResult.read(f));
        assertEquals(2.0, r.appSpeedup(), 1e-12);
        assertEquals(4.0, r.commSpeedup(), 1e-12);
        assertEquals(6.0, r.mainSpeedup(), 1e-12);
        Files.writeString(f, "app=radix\n");
        assertThrows(IllegalArgumentException.class, () -> AppResult.read(f));
    }

    @Test
    void verdictBlocksKeepShortTextAndCutLongTextCleanly() {
        assertEquals("ok é", RankVerdicts.decode(RankVerdicts.encode("ok é")));
        String longText = "é".repeat(RankVerdicts.BLOCK_BYTES);
        String cut = RankVerdicts.decode(RankVerdicts.encode(longText));
        assertEquals(RankVerdicts.BLOCK_BYTES / 2, cut.length());
        assertTrue(longText.startsWith(cut));
    }
}
