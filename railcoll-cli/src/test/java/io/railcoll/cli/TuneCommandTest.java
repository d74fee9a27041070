package io.railcoll.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TuneCommandTest {
    /** Too few samples for a sweep is refused before any job starts, not after every point has been timed. */
    @Test
    void fewerSamplesThanASweepNeedsAreRefusedUpFront(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new TuneCommand()).setErr(new PrintWriter(err));
        Path work = dir.resolve("work");
        int code = cli.execute("--regret", "--samples", "2", "--network", "loopback", "--work", work.toString());
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("--samples must be at least 3"), err.toString());
        assertFalse(Files.exists(work), "a job ran: " + work + " exists");
    }
}
