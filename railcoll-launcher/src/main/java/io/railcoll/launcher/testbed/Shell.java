package io.railcoll.launcher.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs one short-lived command (no shell, argument vector as given) and captures its standard output and
 * error, killing it after a time-out. Used for {@code ip} and {@code tc}, which print a one-line reason on
 * failure: {@link #run} turns a non-zero exit into a {@link CommandException} carrying that reason.
 *
 * <p>Stateless and thread-safe; every call starts and reaps its own process.
 */
final class Shell {
    private final Duration timeout;

    Shell(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        this.timeout = timeout;
    }

    /** What a finished (or killed) command left behind. */
    record Result(List<String> command, int exitCode, String stdout, String stderr) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    /** Runs the command and returns its standard output; throws if it exits non-zero or times out. */
    String run(List<String> command) {
        return check(exec(command), null).stdout();
    }

    /** Runs the command and returns whatever happened, without judging the exit code. */
    Result exec(List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new TestbedException("cannot start " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        try {
            // ip and tc never read stdin; closing it stops anything that would wait on it.
            process.getOutputStream().close();
            // Both pipes are drained concurrently so a chatty command cannot block on a full pipe.
            CompletableFuture<String> out = drain(process.getInputStream());
            CompletableFuture<String> err = drain(process.getErrorStream());
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                return new Result(command, -1, join(out), "no exit after " + timeout.toMillis() + " ms");
            }
            return new Result(command, process.exitValue(), join(out), join(err));
        } catch (IOException e) {
            throw new TestbedException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new TestbedException("interrupted while running " + String.join(" ", command), e);
        }
    }

    /** Returns the result if it succeeded, else throws a {@link CommandException} with an optional hint. */
    static Result check(Result result, String hint) {
        if (!result.ok()) {
            throw new CommandException(result.command(), result.exitCode(), result.stderr(), hint);
        }
        return result;
    }

    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> future = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (in) {
                future.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
            } catch (IOException e) {
                future.complete("(output unreadable: " + e.getMessage() + ")");
            }
        });
        return future;
    }

    private static String join(CompletableFuture<String> future) throws InterruptedException {
        try {
            return future.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            // A grandchild may hold the pipe open after the command was killed; do not wait for it.
            return "(output not collected)";
        }
    }
}
