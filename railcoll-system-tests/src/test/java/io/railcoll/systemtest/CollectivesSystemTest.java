package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective with every algorithm of the catalog, checked byte for byte on every rank, on real processes
 * over real loopback rails. One job per placement checks all of its cases, so JVM start-up is paid once per job.
 */
class CollectivesSystemTest {

    @ParameterizedTest(name = "placement {0}, {1} rails, sizes {2}")
    @CsvSource(delimiter = ';', value = {
            "1;      2; 0,1,7,1023,1025,65537,1048576",
            "1,1;    2; 0,1,7,1023,1025,65537,1048576",
            "2,1;    2; 0,1,7,1023,1025,65537,1048576",
            "2,3;    2; 0,1,7,1023,1025,65537,1048576",
            "3,4,1;  2; 0,1,7,1023,1025,65537",
            "3,4,2;  1; 0,1,7,1025,65537",
            "4x4;    2; 0,1,7,1023,1025,65537",
            "1x5;    1; 0,1,7,1025,65537",
            "4x4;    1; 0,7,1025",
    })
    void everyAlgorithmIsByteExact(String placement, int rails, String sizes) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, rails, CheckApp.class,
                List.of("sizes=" + sizes, "algorithms=all,auto", "roots=0,last,middle"), Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }

    @ParameterizedTest(name = "one node of {0} ranks, shared memory {1}")
    @CsvSource({"8, on", "5, off"})
    void intraNodeTrafficThroughSharedMemoryOrTheRails(int ranks, String shm) {
        Jobs.Outcome o = Jobs.run(Placement.singleNode(ranks), 1, CheckApp.class,
                List.of("sizes=0,1,63,64,4095,4096,65537,4194304", "algorithms=auto", "roots=0,last",
                        "buffers=array,segment"), Map.of("RAILCOLL_SHM", shm)).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }

    @ParameterizedTest(name = "1 MiB on placement {0}")
    @CsvSource({"'4x4'", "'3,4,1'"})
    void largeMessagesWithTheDefaultSelection(String placement) {
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), 2, CheckApp.class,
                List.of("sizes=1048576", "algorithms=auto", "roots=last", "buffers=segment,direct"), Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }
}
