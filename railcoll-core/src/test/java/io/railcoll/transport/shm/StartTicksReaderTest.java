package io.railcoll.transport.shm;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The allocation-free start-ticks reader against the reading by path it replaces in liveness checks. */
class StartTicksReaderTest {
    @Test
    void parsesFieldTwentyTwoAfterTheLastParenthesis() {
        String line = "4242 (a (b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 123456789 99\n";
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        assertEquals(123456789L, StartTicksReader.parse(b, b.length));
        byte[] zombie = "1 (x) Z 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 5 0".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, StartTicksReader.parse(zombie, zombie.length));
        assertEquals(-1, StartTicksReader.parse(b, 30), "a line cut short does not parse");
        assertEquals(-1, StartTicksReader.parse(new byte[0], 0));
    }

    @Test
    void readsWhatTheProcFileSaysAgainAndAgainAndMinusOneOnceTheProcessIsGone() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc here");
        Process child = new ProcessBuilder("sleep", "30").start();
        long[] pids = {ProcessHandle.current().pid(), child.pid()};
        try (StartTicksReader reader = new StartTicksReader(pids)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(Processes.startTicks(pids[0]), reader.startTicks(0));
                assertEquals(Processes.startTicks(pids[1]), reader.startTicks(1));
            }
            assertTrue(reader.startTicks(1) > 0);
            child.destroyForcibly().waitFor();
            assertEquals(-1, reader.startTicks(1), "a process gone (reaped) reads as -1");
        } finally {
            child.destroyForcibly();
        }
    }
}
