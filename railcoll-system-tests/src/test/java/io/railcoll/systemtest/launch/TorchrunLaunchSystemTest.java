package io.railcoll.systemtest.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The variables torchrun and Kubernetes training operators set ({@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK},
 * {@code MASTER_ADDR}, {@code MASTER_PORT}) start the same plain {@code main}, one JVM per rank started here as an
 * operator's pods would be; rank 0 serves the rendezvous at MASTER_PORT. The secret comes from a file; a missing or
 * wrong one is refused with a message naming it.
 */
class TorchrunLaunchSystemTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {4})
    void torchrunStyleVariablesStartAPlainMain(int ranks) throws Exception {
        Path secret = secretFile("s1", "d3b07384d113edec49eaa6238ad5ff00");
        int port = freePort();
        List<Map<String, String>> envs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            Map<String, String> env = torchEnv(r, ranks, port);
            env.put("RAILCOLL_SECRET_FILE", secret.toString());
            envs.add(env);
        }
        List<Launch.Result> results = runRanks(envs, 240);
        StringBuilder all = new StringBuilder();
        for (Launch.Result r : results) {
            all.append(r.output());
            assertEquals(0, r.exitCode(), r.output());
        }
        Launch.assertAllRanks(new Launch.Result(0, all.toString()), ranks, "torchrun");
    }

    @Test
    void aMissingSecretIsRefusedNamingBothWaysToGiveIt() throws Exception {
        List<Launch.Result> results = runRanks(List.of(torchEnv(0, 1, freePort())), 120);
        Launch.Result r = results.getFirst();
        assertNotEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("no job secret") && r.output().contains("RAILCOLL_SECRET_FILE")
                && r.output().contains("RAILCOLL_SECRET "), r.output());
    }

    @Test
    void aWrongSecretIsRefusedNamingWhereItCameFrom() throws Exception {
        Path good = secretFile("good", "8f14e45fceea167a5a36dedd4bea2543");
        Path bad = secretFile("bad", "c9f0f895fb98ab9159f51fd0297e236d");
        int port = freePort();
        Map<String, String> rank0 = torchEnv(0, 2, port);
        rank0.put("RAILCOLL_SECRET_FILE", good.toString());
        rank0.put("RAILCOLL_CONNECT_TIMEOUT_MS", "15000");
        Map<String, String> rank1 = torchEnv(1, 2, port);
        rank1.put("RAILCOLL_SECRET_FILE", bad.toString());
        rank1.put("RAILCOLL_CONNECT_TIMEOUT_MS", "15000");
        List<Launch.Result> results = runRanks(List.of(rank0, rank1), 120);
        Launch.Result r1 = results.get(1);
        System.out.println("rank 1 (wrong secret):\n" + r1.output() + "\nrank 0:\n" + results.get(0).output());
        assertNotEquals(0, r1.exitCode(), r1.output());
        assertTrue(r1.output().contains("wrong job secret") && r1.output().contains("RAILCOLL_SECRET_FILE=" + bad),
                r1.output());
        Launch.Result r0 = results.get(0);
        assertNotEquals(0, r0.exitCode(), r0.output());
        assertTrue(r0.output().contains("wrong job secret") && r0.output().contains("missing ranks [1]"), r0.output());
    }

    private Path secretFile(String name, String secret) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, secret + "\n", StandardCharsets.UTF_8);
        return p;
    }

    static Map<String, String> torchEnv(int rank, int size, int port) {
        Map<String, String> env = new HashMap<>();
        env.put("RANK", Integer.toString(rank));
        env.put("WORLD_SIZE", Integer.toString(size));
        env.put("LOCAL_RANK", Integer.toString(rank));
        env.put("LOCAL_WORLD_SIZE", Integer.toString(size));
        env.put("MASTER_ADDR", "127.0.0.1");
        env.put("MASTER_PORT", Integer.toString(port));
        return env;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Starts one {@link LaunchedMain} JVM per environment and waits for all of them (killed past the deadline). */
    static List<Launch.Result> runRanks(List<Map<String, String>> envs, long timeoutSeconds) throws Exception {
        List<Process> processes = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        try {
            for (Map<String, String> env : envs) {
                Path out = Files.createTempFile("railcoll-torch-rank", ".out");
                outputs.add(out);
                ProcessBuilder pb = new ProcessBuilder(Launch.javaCommand(LaunchedMain.class)).redirectErrorStream(true)
                        .redirectOutput(out.toFile());
                Launch.cleanEnvironment(pb.environment()).putAll(env);
                processes.add(pb.start());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            List<Launch.Result> results = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                Process p = processes.get(i);
                long left = deadline - System.nanoTime();
                if (!p.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    throw new AssertionError("rank " + i + " did not finish within " + timeoutSeconds + " s; output:\n"
                            + Files.readString(outputs.get(i)));
                }
                results.add(new Launch.Result(p.exitValue(), Files.readString(outputs.get(i))));
            }
            return results;
        } finally {
            processes.forEach(p -> Launch.killTree(p.toHandle()));
            for (Path p : outputs) {
                Files.deleteIfExists(p);
            }
        }
    }
}
