package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShellTest {
    private final Shell shell = new Shell(Duration.ofSeconds(10));

    @Test
    void returnsStandardOutput() {
        assertEquals("hello", shell.run(List.of("sh", "-c", "echo hello; echo noise >&2")));
    }

    @Test
    void aFailureNamesTheCommandItsExitCodeAndItsStderr() {
        List<String> command = List.of("sh", "-c", "echo out; echo 'RTNETLINK answers: File exists' >&2; exit 2");
        CommandException e = assertThrows(CommandException.class, () -> shell.run(command));
        assertEquals(command, e.command());
        assertEquals(2, e.exitCode());
        assertEquals("RTNETLINK answers: File exists", e.stderr());
        assertTrue(e.getMessage().startsWith("command failed: sh -c echo out;"), e.getMessage());
        assertTrue(e.getMessage().endsWith("(exit 2): RTNETLINK answers: File exists"), e.getMessage());
    }

    @Test
    void aUsageTextAfterTheComplaintIsLeftOutOfTheMessage() {
        String stderr = "reordering not possible without specifying some delay\nUsage: ... netem [ limit PACKETS ]\n  [ delay TIME ]";
        CommandException e = new CommandException(List.of("tc", "qdisc"), 1, stderr, null);
        assertEquals("command failed: tc qdisc (exit 1): reordering not possible without specifying some delay", e.getMessage());
        assertEquals(stderr, e.stderr());
    }

    @Test
    void aHungCommandIsKilledAfterItsTimeout() {
        long start = System.nanoTime();
        Shell.Result result = new Shell(Duration.ofMillis(300)).exec(List.of("sleep", "20"));
        assertEquals(-1, result.exitCode());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos());
        CommandException e = assertThrows(CommandException.class, () -> Shell.check(result, "a hint"));
        assertTrue(e.getMessage().contains("(timed out)") && e.getMessage().endsWith("; a hint"), e.getMessage());
    }

    @Test
    void aMissingProgramIsATestbedError() {
        TestbedException e = assertThrows(TestbedException.class, () -> shell.run(List.of("/nonexistent/ip", "link")));
        assertTrue(e.getMessage().contains("/nonexistent/ip"), e.getMessage());
    }
}
