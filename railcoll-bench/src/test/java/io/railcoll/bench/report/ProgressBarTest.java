package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressBarTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong();

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void terminalRedrawsOneLine() {
        ProgressBar bar = new ProgressBar(out, true, "sweep", 4, now::get);
        now.set(1_000_000_000L);
        bar.step("allgather.bruck 4K with a long detail");
        now.set(2_000_000_000L);
        bar.step("ring 1B");
        assertFalse(output().contains("\n"), "nothing but carriage returns until finish");
        assertTrue(output().contains("\rsweep [############............] 2/4  50%  0:02 elapsed, 0:02 left  ring 1B"), output());
        bar.finish();
        String last = output().substring(output().lastIndexOf('\r') + 1);
        assertTrue(last.startsWith("sweep: 2/4 steps in 0:02   "), "pads over the longer bar: " + last);
        assertTrue(last.endsWith("\n") && last.indexOf('\n') == last.length() - 1, last);
    }

    @Test
    void logGetsALineEveryTenth() {
        ProgressBar bar = new ProgressBar(out, false, "sweep", 20, now::get);
        for (int i = 0; i < 20; i++) {
            now.addAndGet(1_000_000_000L);
            bar.step("step " + i);
        }
        bar.finish();
        String[] lines = output().split("\n");
        assertEquals(11, lines.length, output());
        assertFalse(output().contains("\r"));
        assertTrue(lines[0].startsWith("sweep [##"), lines[0]);
        assertTrue(lines[0].endsWith("2/20  10%  0:02 elapsed, 0:18 left  step 1"), lines[0]);
        assertEquals("sweep: 20/20 steps in 0:20", lines[10]);
    }

    @Test
    void logGetsALineAfterAQuietInterval() {
        ProgressBar bar = new ProgressBar(out, false, "sweep", 1000, now::get);
        bar.step("fast");
        assertEquals("", output());
        now.set(ProgressBar.LINE_INTERVAL_NS);
        bar.step("slow");
        assertTrue(output().contains("2/1000"), output());
    }

    @Test
    void clockAndMisuse() {
        assertEquals("0:00", ProgressBar.clock(0));
        assertEquals("1:05", ProgressBar.clock(65_000_000_000L));
        assertEquals("1:00:01", ProgressBar.clock(3_601_000_000_000L));
        ProgressBar bar = new ProgressBar(out, false, "x", 1, now::get);
        bar.finish();
        assertThrows(IllegalStateException.class, () -> bar.step("late"));
        assertThrows(IllegalArgumentException.class, () -> new ProgressBar(out, false, "x", 0, now::get));
    }
}
