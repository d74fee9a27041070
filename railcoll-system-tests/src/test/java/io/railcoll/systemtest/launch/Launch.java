package io.railcoll.systemtest.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a launcher command (mpirun, mpiexec.hydra, srun, or one JVM) with a deadline and collects its output. The
 * environment it gets is this one without any variable a launcher or railcoll reads, so what the launcher sets is
 * all the ranks see. A command past its deadline is killed with everything it started.
 */
final class Launch {
    /** Prefixes and names of variables that must not leak from the test's own environment into a job. */
    private static final List<String> SCRUBBED_PREFIXES = List.of("RAILCOLL_", "PMI_", "PMIX_", "OMPI_", "SLURM_",
            "MPI_", "HYDRA_", "PRTE_");
    private static final List<String> SCRUBBED = List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
            "MASTER_ADDR", "MASTER_PORT", "GROUP_RANK", "TORCHELASTIC_RUN_ID");

    record Result(int exitCode, String output) {
        long count(String needle) {
            return output.lines().filter(l -> l.contains(needle)).count();
        }
    }

    private Launch() {
    }

    /** {@code java} with the options every rank gets, this JVM's class path and {@link LaunchedMain}. */
    static List<String> javaCommand(Class<?> main) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xmx128m", "-XX:TieredStopAtLevel=1",
                "-Xshare:auto", "-cp", System.getProperty("java.class.path"), main.getName());
    }

    static Map<String, String> cleanEnvironment(Map<String, String> env) {
        env.keySet().removeIf(k -> SCRUBBED.contains(k) || SCRUBBED_PREFIXES.stream().anyMatch(k::startsWith));
        return env;
    }

    static Result run(List<String> command, Map<String, String> extraEnv, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("railcoll-launch", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            cleanEnvironment(pb.environment()).putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                killTree(p.toHandle());
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError(String.join(" ", command.subList(0, Math.min(3, command.size())))
                        + " did not finish within " + timeoutSeconds + " s; output:\n" + read(out));
            }
            return new Result(p.exitValue(), read(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static void killTree(ProcessHandle p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.add(p);
        all.forEach(ProcessHandle::destroyForcibly);
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    /** Whether {@code program} runs here ({@code --version} or the given arguments exit 0 within 30 s). */
    static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                killTree(p.toHandle());
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The output of a command, or "" when it cannot run. */
    static String output(String... command) {
        try {
            Result r = run(List.of(command), Map.of(), 30);
            return r.output();
        } catch (IOException | AssertionError e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Checks that every rank 0..n-1 reported success through {@code source}. */
    static void assertAllRanks(Result r, int n, String source) {
        System.out.println(r.output());
        if (r.exitCode() != 0) {
            throw new AssertionError("the job exited with " + r.exitCode() + "; output:\n" + r.output());
        }
        for (int rank = 0; rank < n; rank++) {
            String needle = "LAUNCHED-OK rank " + rank + " of " + n + " source " + source + " ";
            if (r.count(needle) != 1) {
                throw new AssertionError("expected one line '" + needle + "...'; output:\n" + r.output());
            }
        }
    }
}
