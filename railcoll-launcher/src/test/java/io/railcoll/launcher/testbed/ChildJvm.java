package io.railcoll.launcher.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM running a test program (from this test classpath), optionally inside a namespace, talked to one line
 * at a time with a deadline on every answer. Closing it closes its stdin and kills it if it lingers.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path stderr;

    ChildJvm(List<String> prefix, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        // Small heap, serial GC and C1 only: these programs move a few MB, and JVM start-up is the cost here.
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        stderr = Files.createTempFile("railcoll-child", ".err");
        process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("(stdout broken: " + e + ")");
            }
        });
    }

    /** The next line the program prints, failing the test if none comes in time. */
    String nextLine(Duration timeout) throws Exception {
        String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (line == null) {
            throw new AssertionError("no answer within " + timeout + " from " + process.info().commandLine().orElse("?")
                    + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")") + "; stderr: " + Files.readString(stderr));
        }
        return line;
    }

    /** Sends one command line and returns the answer. */
    String ask(String command, Duration timeout) throws Exception {
        stdin.write(command + "\n");
        stdin.flush();
        return nextLine(timeout);
    }

    Process process() {
        return process;
    }

    @Override
    public void close() throws IOException {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(stderr);
    }
}
