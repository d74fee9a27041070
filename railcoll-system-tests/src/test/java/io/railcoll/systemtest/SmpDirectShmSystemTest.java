package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code allgather.smp-direct-shm} as the engine runs its program of node steps and puts (decisions 0156, 0157),
 * forced and checked byte for byte on every rank, on real processes over loopback rails: uneven nodes, nodes of one
 * rank, and sizes 0, 1, odd, past the overlap threshold and past the node buffer (where chunks go round its slots),
 * with heap and native buffers.
 */
class SmpDirectShmSystemTest {
    static final List<String> ARGS = List.of("collectives=allgather", "algorithms=allgather.smp-direct-shm",
            "sizes=0,1,7,1025,65537,300001,1048579", "buffers=array,segment");

    /** 3,4,2 on 2 rails: CheckJobsSystemTest, a pass of that placement's one job (decision 0082). */
    @ParameterizedTest(name = "placement {0}, {1} rails")
    @CsvSource(delimiter = ';', value = {"2x2; 2", "5x1; 1", "2,3; 1"})
    void isByteExactOnEveryRank(String placement, int rails) {
        Jobs.Outcome o = Jobs.run(Placement.parse(placement), rails, CheckApp.class, ARGS, Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("CHECKED "), o.stdout());
    }
}
