package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which source an environment calls for, and what the environment-only sources read from it. */
class BootstrapSourcesTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private static Map<String, String> slurm() {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_PROCID", "2");
        env.put("SLURM_NTASKS", "4");
        env.put("SLURM_STEP_NUM_TASKS", "4");
        env.put("SLURM_LOCALID", "0");
        env.put("SLURM_NODEID", "1");
        env.put("SLURM_STEP_TASKS_PER_NODE", "2(x2)");
        env.put("SLURM_STEP_NODELIST", "localhost,other[1-2]");
        env.put("SLURM_JOB_ID", "4242");
        env.put("SLURM_STEP_ID", "3");
        env.put("SLURMD_NODENAME", "other1");
        return env;
    }

    private static Map<String, String> torch() {
        Map<String, String> env = new HashMap<>();
        env.put("RANK", "1");
        env.put("WORLD_SIZE", "3");
        env.put("LOCAL_RANK", "1");
        env.put("LOCAL_WORLD_SIZE", "3");
        env.put("MASTER_ADDR", "127.0.0.1");
        env.put("MASTER_PORT", "29511");
        return env;
    }

    @Test
    void theOrderIsRailcollPmixPmi1SlurmTorchrun() {
        Map<String, String> env = torch();
        assertEquals("torchrun", BootstrapSources.choose(env));
        env.putAll(slurm());
        assertEquals("slurm", BootstrapSources.choose(env));
        env.put("PMI_FD", "6");
        assertEquals("pmi1", BootstrapSources.choose(env));
        env.put("PMIX_NAMESPACE", "slurm.pmix.4242.3");
        env.put("PMIX_RANK", "2");
        assertEquals("pmix", BootstrapSources.choose(env));
        env.put("RAILCOLL_RENDEZVOUS", "127.0.0.1:1");
        assertEquals("railcoll", BootstrapSources.choose(env));
        env.remove("RAILCOLL_RENDEZVOUS");
        env.put("RAILCOLL_RANK", "0");
        assertEquals("railcoll", BootstrapSources.choose(env), "explicit railcoll settings win");
    }

    @Test
    void aBatchScriptsShellIsNoSlurmTask() {
        Map<String, String> env = slurm();
        env.remove("SLURM_STEP_ID");
        env.remove("SLURM_STEP_NODELIST");
        env.remove("SLURM_STEP_NUM_TASKS");
        env.put("SLURM_JOB_NODELIST", "localhost");
        assertThrows(IllegalArgumentException.class, () -> BootstrapSources.choose(env));
    }

    @Test
    void aSourceCanBeForcedAndAnUnknownOneIsNamed() {
        Map<String, String> env = slurm();
        env.put("PMIX_NAMESPACE", "ns");
        env.put("PMIX_RANK", "0");
        env.put("RAILCOLL_BOOTSTRAP", "slurm");
        assertEquals("slurm", BootstrapSources.choose(env));
        env.put("RAILCOLL_BOOTSTRAP", "auto");
        assertEquals("pmix", BootstrapSources.choose(env));
        env.put("RAILCOLL_BOOTSTRAP", "lsf");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BootstrapSources.choose(env));
        assertTrue(e.getMessage().contains("RAILCOLL_BOOTSTRAP=lsf") && e.getMessage().contains("torchrun"), e.getMessage());
    }

    @Test
    void noLauncherAtAllNamesEveryWayToStart() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BootstrapSources.choose(Map.of()));
        assertTrue(e.getMessage().contains("mpirun") && e.getMessage().contains("srun")
                && e.getMessage().contains("MASTER_ADDR") && e.getMessage().contains("docs/launching.md"), e.getMessage());
    }

    @Test
    void slurmsEnvironmentGivesIdentityAndADerivedRendezvousOnTheFirstNode() {
        Map<String, String> env = slurm();
        env.put("RAILCOLL_SECRET", "s");
        try (BootstrapSource s = BootstrapSources.open(env, QUIET)) {
            assertEquals("slurm", s.name());
            RankIdentity id = s.identity();
            assertEquals(new RankIdentity(2, 4, 0, 2, "other1", "slurm-4242.3"), id);
            assertEquals("localhost", s.routeHint().getHostString());
            assertEquals(SlurmEnvironment.port(4242, 3), s.routeHint().getPort());
            assertTrue(s.routeHint().getPort() >= 20_000 && s.routeHint().getPort() < 30_000);
            assertEquals("RAILCOLL_SECRET", s.secretOrigin());
        }
        env.put("RAILCOLL_RENDEZVOUS_PORT", "23456");
        try (BootstrapSource s = BootstrapSources.open(env, QUIET)) {
            assertEquals(23456, s.routeHint().getPort());
        }
        assertEquals(SlurmEnvironment.port(4242, 3), SlurmEnvironment.port(4242, 3));
        assertTrue(SlurmEnvironment.port(4242, 3) != SlurmEnvironment.port(4243, 3));
    }

    @Test
    void slurmRankZeroOffTheFirstNodeIsNamed() {
        Map<String, String> env = slurm();
        env.put("RAILCOLL_SECRET", "s");
        env.put("SLURM_PROCID", "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BootstrapSources.open(env, QUIET));
        assertTrue(e.getMessage().contains("rank 0") && e.getMessage().contains("localhost"), e.getMessage());
    }

    @Test
    void slurmAndTorchrunWithoutASecretNameBothWaysToGiveIt() {
        for (Map<String, String> env : new Map[] {slurm(), torch()}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BootstrapSources.open(env, QUIET));
            assertTrue(e.getMessage().contains("RAILCOLL_SECRET_FILE") && e.getMessage().contains("RAILCOLL_SECRET "),
                    e.getMessage());
        }
    }

    @Test
    void torchrunVariablesGiveIdentityAndTheMasterAsRendezvous() {
        Map<String, String> env = torch();
        env.put("RAILCOLL_SECRET", "s");
        env.put("RAILCOLL_NODE", "pod-1");
        try (BootstrapSource s = BootstrapSources.open(env, QUIET)) {
            assertEquals(new RankIdentity(1, 3, 1, 3, "pod-1", "torch-127.0.0.1-29511"), s.identity());
            assertEquals(29511, s.routeHint().getPort());
            assertTrue(s.identity().wholeJobOnThisNode());
        }
        env.put("TORCHELASTIC_RUN_ID", "run/7");
        try (BootstrapSource s = BootstrapSources.open(env, QUIET)) {
            assertEquals("torch-run_7", s.identity().jobId());
        }
        env.put("RAILCOLL_RENDEZVOUS_PORT", "29600");
        try (BootstrapSource s = BootstrapSources.open(env, QUIET)) {
            assertEquals(29600, s.routeHint().getPort(), "RAILCOLL_RENDEZVOUS_PORT replaces MASTER_PORT");
        }
        env.remove("RAILCOLL_RENDEZVOUS_PORT");
        env.put("MASTER_PORT", "70000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BootstrapSources.open(env, QUIET));
        assertTrue(e.getMessage().contains("MASTER_PORT"), e.getMessage());
    }

    @Test
    void slurmTasksPerNodeIsReadForThisNode() {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_STEP_TASKS_PER_NODE", "3(x2),1");
        env.put("SLURM_NODEID", "2");
        assertEquals(1, SlurmEnvironment.localTasks(env));
        env.put("SLURM_NODEID", "1");
        assertEquals(3, SlurmEnvironment.localTasks(env));
        env.put("SLURM_STEP_TASKS_PER_NODE", "x");
        assertThrows(IllegalArgumentException.class, () -> SlurmEnvironment.localTasks(env));
    }

    @Test
    void aRecordSurvivesTheKeyValueEncoding() throws Exception {
        RankRecord r = new RankRecord(3, 8, 1234, "node-a", java.util.List.of(
                new java.net.InetSocketAddress(java.net.InetAddress.getByName("10.1.2.3"), 40001),
                new java.net.InetSocketAddress(java.net.InetAddress.getByName("::1"), 40002)));
        assertEquals(r, KvsSource.decode(KvsSource.encode(r)));
    }
}
