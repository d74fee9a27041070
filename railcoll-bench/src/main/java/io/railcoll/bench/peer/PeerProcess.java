package io.railcoll.bench.peer;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Runs a peer's command with its output in files (no pipe can fill up and stall it), its input from
 * {@code /dev/null}, and a deadline at which it and every descendant are killed and the error says so. Stateless.
 */
final class PeerProcess {
    private static final int TAIL_CHARS = 2_000;

    record Output(int exitCode, String stdout, String stderr) {
    }

    private PeerProcess() {
    }

    static Output run(List<String> command, Map<String, String> environment, Path directory, Duration timeout) {
        return run(command, environment, directory, timeout, name -> false);
    }

    /** {@link #run}, without the inherited variables {@code drop} names (before {@code environment} is added). */
    static Output run(List<String> command, Map<String, String> environment, Path directory, Duration timeout,
                      Predicate<String> drop) {
        Path stdout = null;
        Path stderr = null;
        Process process = null;
        try {
            stdout = Files.createTempFile("railcoll-peer-", ".out");
            stderr = Files.createTempFile("railcoll-peer-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().keySet().removeIf(drop);
            builder.environment().putAll(environment);
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                long killed = killTree(process);
                throw new PeerException("'" + String.join(" ", command) + "' did not finish within " + timeout.toSeconds()
                        + " s; killed pid " + process.pid() + " and " + killed + " descendants. Last output:\n"
                        + tail(Files.readString(stdout)) + "\n" + tail(Files.readString(stderr)));
            }
            return new Output(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } catch (IOException e) {
            throw new PeerException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (process != null) {
                killTree(process);
            }
            throw new PeerException("interrupted while waiting for '" + String.join(" ", command) + "'", e);
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
    }

    /** Kills the process's descendants first, then the process; returns how many descendants there were. */
    static long killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return descendants.size();
    }

    static String tail(String text) {
        String t = text.strip();
        return t.length() <= TAIL_CHARS ? t : "..." + t.substring(t.length() - TAIL_CHARS);
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover temp file is harmless and must not hide the real outcome.
        }
    }
}
