package io.railcoll.bench.apps;

import io.railcoll.Communicator;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The end of every app job: rank 0 prints the summary and writes the result file; then, if a check failed, rank 0
 * fails, which fails the job. The other ranks return normally so the failure is reported once, not once per rank.
 */
final class AppReporting {
    private AppReporting() {
    }

    /**
     * Every rank calls this with the same verdict (from {@link RankVerdicts}). Reporting comes before failing so that a failed check still
     * leaves its numbers and its reasons behind.
     */
    static void report(Communicator comm, AppResult result, Path file, boolean summary) throws IOException {
        if (comm.rank() == 0) {
            if (summary) {
                result.summary().forEach(System.out::println);
            }
            if (file != null) {
                result.write(file);
            }
            System.out.flush();
        }
        if (!result.checkPassed() && comm.rank() == 0) {
            throw new CheckFailedException(result.app() + " check failed: " + result.checks());
        }
    }
}
