package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleTableWriterTest {

    @Test
    void rendersTheHandCheckedTable() {
        ResultTable t = ResultTable.build(ResultTableTest.sweep(), ResultTableTest.OPTIONS).getFirst();
        String expected = """
                allgather: 4 nodes x 4 ranks, 2 rails, engine tcp - median latency (us)
                size  ring   bruck   smp.bruck   openmpi   best/flat  best/openmpi
                1B    10.0    8.00        4.00*     5.00       2.00x         0.80x
                4B    6.00*      -           -         -       1.00x             -
                1K    20.0*   30.0        25.0      10.0       1.00x         2.00x
                * fastest railcoll algorithm; best/flat = best flat latency / best latency; \
                best/openmpi = best latency / openmpi latency (below 1: railcoll faster)
                """;
        assertEquals(expected, ConsoleTableWriter.render(t));
    }

    @Test
    void separatesTablesWithABlankLine() {
        List<ResultTable> tables = ResultTable.build(List.of(Fixtures.point(Fixtures.RING, 1, 3),
                Fixtures.point(new Series(io.railcoll.schedule.Collective.GATHER, "gather.linear", 2, "2", 1, "shm"), 1, 2)),
                TableOptions.withoutPeer(java.util.Set.of()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleTableWriter.write(new PrintStream(bytes, true, StandardCharsets.UTF_8), tables);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("\n\ngather: 2 nodes x 2 ranks, 1 rail, engine shm"), out);
    }
}
