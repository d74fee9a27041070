package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyPlotTest {

    /** A sweep shaped like a real one: 0 B to 1 MiB, latency growing with size, the peer between. */
    static List<BenchResult> realisticSweep() {
        List<BenchResult> results = new ArrayList<>();
        for (long size = 0; size <= 1 << 20; size = size == 0 ? 1 : size * 2) {
            double bytes = size;
            results.add(Fixtures.point(Fixtures.RING, size, 20 + bytes * 16 / 1000.0));
            results.add(Fixtures.point(Fixtures.BRUCK, size, 12 + bytes * 24 / 1000.0));
            results.add(Fixtures.point(Fixtures.SMP, size, 6 + bytes * 14 / 1000.0));
            results.add(Fixtures.point(Fixtures.PEER, size, 9 + bytes * 12 / 1000.0));
        }
        return results;
    }

    @Test
    void writesAPngOfTheDocumentedSize(@TempDir Path dir) throws IOException {
        ResultTable t = ResultTable.build(realisticSweep(), ResultTableTest.OPTIONS).getFirst();
        Path png = dir.resolve("plot.png");
        LatencyPlot.write(t, png);
        byte[] head = new byte[8];
        System.arraycopy(Files.readAllBytes(png), 0, head, 0, 8);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, head);
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "ImageIO can decode it");
        assertEquals(LatencyPlot.WIDTH, image.getWidth());
        assertEquals(LatencyPlot.HEIGHT, image.getHeight());
    }

    @Test
    void sizeTicksAreLabelledOnlyAtPowersOfTwo() {
        assertEquals("1B", LatencyPlot.sizeTick(0.0));
        assertEquals("1K", LatencyPlot.sizeTick(10.0));
        assertEquals("1M", LatencyPlot.sizeTick(20.0));
        assertEquals("32B", LatencyPlot.sizeTick(5.0));
        assertEquals("", LatencyPlot.sizeTick(2.5));
    }

    @Test
    void barrierAloneIsNotPlottable() {
        Series barrier = new Series(Collective.BARRIER, "barrier.dissemination", 2, "2", 1, "shm");
        ResultTable t = ResultTable.build(List.of(Fixtures.point(barrier, 0, 3)), TableOptions.withoutPeer(Set.of()))
                .getFirst();
        assertFalse(LatencyPlot.plottable(t));
        assertThrows(IllegalArgumentException.class, () -> LatencyPlot.write(t, Path.of("unused.png")));
    }

    @Test
    void benchReportWritesEveryFile(@TempDir Path dir) throws IOException {
        Series barrier = new Series(Collective.BARRIER, "barrier.dissemination", 4, "4", 2, "tcp");
        List<BenchResult> results = new ArrayList<>(realisticSweep());
        results.add(Fixtures.point(barrier, 0, 3));
        BenchReport.Written written = BenchReport.writeAll(dir.resolve("out"), results, ResultTableTest.OPTIONS,
                "bin/railcoll bench", MarkdownReportTest.MACHINE);
        assertEquals(List.of(dir.resolve("out/allgather-4x4.png")), written.plots(), "no plot for the barrier");
        assertEquals(1 + results.size(), Files.readAllLines(written.csv()).size());
        String md = Files.readString(written.markdown());
        assertTrue(md.contains("](allgather-4x4.png)"));
        assertTrue(md.contains("## barrier: 4 nodes x 4 ranks"));
    }
}
