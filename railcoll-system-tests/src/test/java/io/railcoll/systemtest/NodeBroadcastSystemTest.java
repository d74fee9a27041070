package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Large one-node broadcasts on real processes (decisions 0180, 0181, 0186): the contention-free single-copy broadcast
 * and {@code broadcast.shm} (the node buffer's pipeline in node steps), forced, and what selection picks
 * ({@code broadcast.shm}, single copy from 64 KiB on 3 ranks where the node agreed on it), byte for byte on every
 * rank, every root, from 0 bytes to more than a 2 MiB half of the node buffer, native and mixed native/heap buffers.
 */
class NodeBroadcastSystemTest {
    private static final String SIZES = "0,1,63,65535,65536,65537,3000001";

    @ParameterizedTest(name = "placement {0}")
    @CsvSource({"'1x3', '0,1,2'", "'1x5', '0,1,2,3,4'"})
    void largeOneNodeBroadcastsAreByteExactOnEveryRoot(String placement, String roots) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, 1, CheckApp.class, List.of("collectives=broadcast",
                "algorithms=broadcast.shm-scatter-allgather,broadcast.shm,auto", "sizes=" + SIZES,
                "roots=" + roots, "buffers=segment,mixed"), Map.of()).assertSucceeded();
        // Every case ran: 3 algorithms x 7 sizes x every root x 2 buffer kinds (a forced algorithm that cannot run
        // fails the job instead of being skipped).
        int cases = 3 * SIZES.split(",").length * roots.split(",").length * 2;
        assertTrue(o.stdout().contains("CHECKED " + cases + " cases"), o.stdout());
    }
}
