package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CsvResultsTest {

    @Test
    void oneRowPerPointWithTheDocumentedColumns(@TempDir Path dir) throws IOException {
        Series uneven = new Series(Collective.ALLGATHER, "allgather.smp.bruck", 3, "3,4,2", 2, "tcp");
        List<BenchResult> results = List.of(
                new BenchResult(Fixtures.RING, 1, 10.5, 10.0, 12.25, 5, OptionalDouble.empty()),
                new BenchResult(uneven, 1048576, 240.0, 239.5, 250.0, 3, OptionalDouble.empty()));
        Path file = dir.resolve("results.csv");
        CsvResults.write(file, results);
        List<String> lines = Files.readAllLines(file);
        assertEquals(List.of(
                "collective,algorithm,nodes,ranks_per_node,rails,engine,size_bytes,latency_us_median,latency_us_min,"
                        + "latency_us_max,samples",
                "allgather,allgather.ring,4,4,2,tcp,1,10.500,10.000,12.250,5",
                "allgather,allgather.smp.bruck,3,\"3,4,2\",2,tcp,1048576,240.000,239.500,250.000,3"), lines);
    }

    @Test
    void bandwidthColumnOnlyWhenSomeResultHasOne() throws IOException {
        List<BenchResult> results = List.of(
                Fixtures.point(Fixtures.RING, 1024, 10).withBandwidthMbitS(819.2),
                Fixtures.point(Fixtures.RING, 2048, 10));
        StringBuilder csv = new StringBuilder();
        CsvResults.write(csv, results);
        String[] lines = csv.toString().split("\n");
        assertEquals(3, lines.length);
        assertEquals(true, lines[0].endsWith(",samples,bandwidth_mbit_s"));
        assertEquals(true, lines[1].endsWith(",5,819.2"));
        assertEquals(true, lines[2].endsWith(",5,"), "a row without bandwidth leaves the cell empty");
    }

    @Test
    void readsBackWhatItWrote() throws IOException {
        List<BenchResult> results = List.of(
                new BenchResult(Fixtures.PEER, 0, 0.5, 0.25, 0.75, 5, OptionalDouble.of(12.5)),
                new BenchResult(new Series(Collective.BROADCAST, "broadcast.binomial", 3, "3,4,2", 1, "shm"), 7,
                        1.5, 1.25, 2.0, 2, OptionalDouble.empty()));
        StringBuilder csv = new StringBuilder();
        CsvResults.write(csv, results);
        assertEquals(results, CsvResults.read(new StringReader(csv.toString())));
    }
}
