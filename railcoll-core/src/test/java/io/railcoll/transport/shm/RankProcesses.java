package io.railcoll.transport.shm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Spawns one JVM per rank running a main class from the test class path, collects each one's
 * output (stdout and stderr merged) line by line, and lets a test wait for a line, kill a rank
 * (SIGKILL) and collect exit codes. Closing kills whatever is still running.
 */
final class RankProcesses implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<StringBuffer> outputs = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    /** Starts {@code main} once per argument list. */
    static RankProcesses start(Class<?> main, List<List<String>> argumentsPerRank) throws IOException {
        RankProcesses ranks = new RankProcesses();
        try {
            for (List<String> arguments : argumentsPerRank) {
                ranks.spawn(main, arguments);
            }
        } catch (IOException | RuntimeException e) {
            ranks.close();
            throw e;
        }
        return ranks;
    }

    private void spawn(Class<?> main, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(classPath());
        command.add("--enable-native-access=ALL-UNNAMED");
        // Small, quick-starting JVMs: 8 of them share 2 cores with the test JVM.
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Xmx192m");
        command.add("-XX:MaxDirectMemorySize=64m");
        command.add(main.getName());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuffer output = new StringBuffer();
        Thread pump = Thread.ofPlatform().daemon().name("rank-output-" + processes.size()).start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.append(line).append('\n');
                }
            } catch (IOException e) {
                output.append("[output pump failed: ").append(e).append("]\n");
            }
        });
        processes.add(process);
        outputs.add(output);
        pumps.add(pump);
    }

    /** Surefire puts the real class path here; a manifest-only jar in java.class.path also works. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    int size() {
        return processes.size();
    }

    long pid(int rank) {
        return processes.get(rank).pid();
    }

    String output(int rank) {
        return outputs.get(rank).toString();
    }

    /** Waits until rank {@code rank} printed a line containing {@code marker}. */
    void awaitOutput(int rank, String marker, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!outputs.get(rank).toString().contains(marker)) {
            if (!processes.get(rank).isAlive() && !outputs.get(rank).toString().contains(marker)) {
                pumps.get(rank).join(1000);
                if (outputs.get(rank).toString().contains(marker)) {
                    return;
                }
                throw new AssertionError("rank " + rank + " exited (" + processes.get(rank).exitValue()
                        + ") without printing '" + marker + "':\n" + output(rank));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("rank " + rank + " did not print '" + marker + "' within " + timeoutMillis
                        + " ms:\n" + output(rank));
            }
            Thread.sleep(5);
        }
    }

    /** SIGKILL, as a crash or {@code kill -9} would. */
    void kill(int rank) throws InterruptedException {
        processes.get(rank).destroyForcibly();
        processes.get(rank).waitFor(10, TimeUnit.SECONDS);
    }

    /**
     * Waits for every rank to exit and returns the exit codes; kills all and fails if they take
     * longer than {@code timeoutMillis}, printing everyone's output.
     */
    int[] awaitExit(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        int[] codes = new int[processes.size()];
        for (int r = 0; r < processes.size(); r++) {
            long left = Math.max(1, deadline - System.currentTimeMillis());
            if (!processes.get(r).waitFor(left, TimeUnit.MILLISECONDS)) {
                String all = describeAll();
                close();
                throw new AssertionError("rank " + r + " still running after " + timeoutMillis + " ms\n" + all);
            }
            codes[r] = processes.get(r).exitValue();
            pumps.get(r).join(5000);
        }
        return codes;
    }

    String describeAll() {
        StringBuilder all = new StringBuilder();
        for (int r = 0; r < processes.size(); r++) {
            all.append("---- rank ").append(r).append(" (pid ").append(pid(r)).append(")\n").append(output(r));
        }
        return all.toString();
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
