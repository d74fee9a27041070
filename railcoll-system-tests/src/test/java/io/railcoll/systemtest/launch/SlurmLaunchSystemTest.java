package io.railcoll.systemtest.launch;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's Slurm ({@link LocalSlurm}: slurmctld and slurmd on this machine) starts a plain {@code main} with
 * {@code srun -n 4}: with {@code --mpi=pmix} the ranks use PMIx as under mpirun; with {@code --mpi=none} they read
 * Slurm's environment, rank 0 serves the rendezvous on the step's first node, and the secret comes from
 * {@code RAILCOLL_SECRET_FILE}. Every collective is checked byte for byte.
 */
class SlurmLaunchSystemTest {
    private static LocalSlurm slurm;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSlurm() throws Exception {
        slurm = LocalSlurm.start();
        if (slurm == null) {
            System.err.println("SlurmLaunchSystemTest skipped: cannot run Slurm on this machine: " + LocalSlurm.whyNot);
        }
    }

    /** Per test, so that each skip is reported with its reason (a class-level one shows as no test at all). */
    @BeforeEach
    void slurmRuns() {
        assumeTrue(slurm != null, () -> "skipped: cannot run Slurm on this machine: " + LocalSlurm.whyNot);
    }

    @AfterAll
    static void stopSlurm() throws Exception {
        if (slurm != null) {
            slurm.close();
        }
    }

    @Test
    void srunWithPmixStartsAPlainMain() throws Exception {
        assumeTrue(slurm.mpiPlugins().contains("pmix"),
                "skipped: this Slurm offers no pmix plugin (srun --mpi=list): " + slurm.mpiPlugins());
        Launch.Result r = Launch.run(srun("--mpi=pmix"), slurm.environment(), 300);
        Launch.assertAllRanks(r, 4, "pmix");
    }

    @Test
    void srunWithoutPmiStartsAPlainMainFromSlurmsEnvironment() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "a87ff679a2f3e71d9181a67b7542122c\n", StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>(slurm.environment());
        env.put("RAILCOLL_SECRET_FILE", secret.toString());
        Launch.Result r = Launch.run(srun("--mpi=none"), env, 300);
        Launch.assertAllRanks(r, 4, "slurm");
    }

    private static List<String> srun(String mpi) {
        List<String> cmd = new ArrayList<>(List.of("srun", "-n", "4", mpi, "--time=5", "--kill-on-bad-exit=1"));
        cmd.addAll(Launch.javaCommand(LaunchedMain.class));
        return cmd;
    }
}
