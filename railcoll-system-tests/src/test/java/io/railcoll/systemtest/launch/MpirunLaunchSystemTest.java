package io.railcoll.systemtest.launch;

import io.railcoll.bootstrap.BootstrapSources;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's Open MPI {@code mpirun} starts a plain {@code main} with no railcoll variable: the ranks learn who they
 * are through PMIx ({@code libpmix} by FFM), exchange their rail endpoints and the secret rank 0 made through
 * PMIx_Put/Fence/Get, and every collective is checked byte for byte.
 */
class MpirunLaunchSystemTest {
    /** Open MPI's own name for it: plain {@code mpirun} may be MPICH's where both are installed (Debian alternatives). */
    private static final String MPIRUN = java.nio.file.Files.isExecutable(java.nio.file.Path.of("/usr/bin/mpirun.openmpi"))
            ? "/usr/bin/mpirun.openmpi" : "mpirun";

    @BeforeEach
    void openMpiAndPmixPresent() {
        // "mpirun (Open MPI) 4.1.4", or as mpirun.openmpi "mpirun.openmpi (OpenRTE) 4.1.4 ... www.open-mpi.org"
        assumeTrue(Launch.output(MPIRUN, "--version").contains("open-mpi.org"),
                "skipped: Open MPI's mpirun is not installed or did not answer --version (apt-get install openmpi-bin)");
        assumeTrue(BootstrapSources.pmixLibrary(System.getenv()).isPresent(),
                "skipped: libpmix is not installed (apt-get install libpmix2)");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {4, 6})
    void mpirunStartsAPlainMainWithNoRailcollVariable(int ranks) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "-np", Integer.toString(ranks)));
        cmd.addAll(Launch.javaCommand(LaunchedMain.class));
        Launch.Result r = Launch.run(cmd, Map.of(), 300);
        Launch.assertAllRanks(r, ranks, "pmix");
    }

    @Test
    void aRankThatComesTooLateFailsTheFenceAtTheStartUpDeadline() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "-x", "RAILCOLL_CONNECT_TIMEOUT_MS=4000", "-np", "2"));
        cmd.addAll(Launch.javaCommand(LaunchedMain.class));
        cmd.addAll(List.of("late", "1", "15"));
        long start = System.nanoTime();
        Launch.Result r = Launch.run(cmd, Map.of(), 120);
        System.out.println(r.output());
        assertTrue(r.exitCode() != 0, r.output());
        assertTrue(r.output().contains("rank 0: PMIx_Fence over namespace") && r.output().contains("TIMEOUT")
                && r.output().contains("other ranks missing"), r.output());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(100), "mpirun took too long to end the job");
    }

    @Test
    void infoEnvShowsWhatEachRankOfMpirunWouldUse() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none",
                "-np", "2"));
        List<String> java = new ArrayList<>(Launch.javaCommand(LaunchedMain.class));
        java.set(java.size() - 1, "io.railcoll.cli.RailcollCli");
        cmd.addAll(java);
        cmd.addAll(List.of("info", "--env"));
        Launch.Result r = Launch.run(cmd, Map.of(), 120);
        System.out.println(r.output());
        assertEquals(0, r.exitCode(), r.output());
        assertEquals(2, r.count("bootstrap: pmix"), r.output());
        assertEquals(1, r.output().lines().filter("rank: 0"::equals).count(), r.output());
        assertEquals(1, r.output().lines().filter("rank: 1"::equals).count(), r.output());
        assertEquals(2, r.count("size: 2"), r.output());
        assertEquals(2, r.count("secret: made by rank 0, shared through PMIx"), r.output());
        assertTrue(r.output().contains("rails: "), r.output());
    }
}
