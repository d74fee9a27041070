package io.railcoll.launcher;

/**
 * How a job ended: exit code 0 when every rank succeeded; otherwise the first rank that failed and its reason
 * (its "FAILED:" line, or its exit status).
 */
public record JobResult(int exitCode, int failedRank, String failure) {
    public static JobResult success() {
        return new JobResult(0, -1, null);
    }

    public boolean succeeded() {
        return exitCode == 0;
    }
}
