package io.railcoll.launcher.testbed;

import java.util.List;

/**
 * A command ({@code ip}, {@code tc}, ...) that exited non-zero or did not finish in time. The message
 * names the whole command line, its exit code and its standard error, so a failed start says exactly
 * which step the kernel refused and why.
 */
public final class CommandException extends TestbedException {
    private final List<String> command;
    private final int exitCode;
    private final String stderr;

    CommandException(List<String> command, int exitCode, String stderr, String hint) {
        super(describe(command, exitCode, stderr, hint));
        this.command = List.copyOf(command);
        this.exitCode = exitCode;
        this.stderr = stderr;
    }

    /** The command line that failed, one element per argument. */
    public List<String> command() {
        return command;
    }

    /** Its exit code, or -1 when it was killed after its time-out. */
    public int exitCode() {
        return exitCode;
    }

    /** What it printed on standard error (trimmed). */
    public String stderr() {
        return stderr;
    }

    private static String describe(List<String> command, int exitCode, String stderr, String hint) {
        StringBuilder sb = new StringBuilder("command failed: ").append(String.join(" ", command));
        sb.append(exitCode < 0 ? " (timed out)" : " (exit " + exitCode + ")");
        // tc follows a complaint with its whole usage text; the complaint is what the user needs.
        int usage = stderr.indexOf("\nUsage:");
        String reason = usage >= 0 ? stderr.substring(0, usage).strip() : stderr;
        if (!reason.isEmpty()) {
            sb.append(": ").append(reason);
        }
        if (hint != null) {
            sb.append("; ").append(hint);
        }
        return sb.toString();
    }
}
