package io.railcoll.bench;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the local-reduction bench reports, not how fast: a row per (type, size), both clocks filled in. */
class LocalReduceBenchTest {

    @Test
    void aRowPerTypeAndSizeWithWallAndCpuFigures() {
        List<LocalReduceBench.Row> rows = LocalReduceBench.run(List.of(ElementType.INT, ElementType.DOUBLE),
                PredefinedOperator.SUM, new long[] {1024, 1000}, 3, 1, 0);
        assertEquals(4, rows.size());
        // 1000 bytes are 250 ints but 125 doubles: the bytes are whole elements' bytes.
        long[][] expected = {{1024, 1000}, {1024, 1000}};
        ElementType[] types = {ElementType.INT, ElementType.DOUBLE};
        for (int t = 0; t < 2; t++) {
            for (int s = 0; s < 2; s++) {
                LocalReduceBench.Row row = rows.get(t * 2 + s);
                assertEquals(types[t], row.type());
                assertEquals(expected[t][s], row.bytes());
                for (double v : new double[] {row.copyGbs(), row.reduceGbs(), row.ratio(), row.copyCpuNs(),
                        row.reduceCpuNs(), row.cpuRatio()}) {
                    assertTrue(v > 0 && Double.isFinite(v), row.line());
                }
                assertTrue(row.line().contains(" cpu_ratio="), row.line());
            }
        }
    }

    @Test
    void noSamplesIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> LocalReduceBench.run(List.of(ElementType.INT), PredefinedOperator.SUM, new long[] {1024}, 0, 1, 0));
    }
}
