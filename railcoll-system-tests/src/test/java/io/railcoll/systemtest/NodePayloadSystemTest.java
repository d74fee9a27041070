package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Blocks that ride in a node flag's own cache line (decision 0202) on real processes sharing a real node region:
 * {@code allgather.shm}, {@code gather.shm}, {@code broadcast.shm} and {@code allreduce.shm}'s small form, forced and
 * as the automatic choice, at sizes around the 24-byte payload limit (0, 1, 7, 24 in the line; 25 through the node
 * buffer), every root, native and mixed buffers, byte for byte on every rank. Many calls in a row in one job, so the
 * payload areas of both parities are rewritten call after call and the node-buffer gate that protects them runs.
 */
class NodePayloadSystemTest {
    private static final String SIZES = "0,1,7,24,25";

    @ParameterizedTest(name = "1x{0}")
    @ValueSource(ints = {2, 3, 5})
    void smallBlocksInTheFlagsLineAreByteExact(int ranks) {
        Placement p = Placement.singleNode(ranks);
        String roots = ranks == 2 ? "0,1" : "0,middle,last";
        Jobs.Outcome o = Jobs.run(p, 1, CheckApp.class, List.of("collectives=allgather,gather,broadcast",
                "algorithms=allgather.shm,gather.shm,broadcast.shm,auto", "sizes=" + SIZES, "roots=" + roots,
                "buffers=segment,mixed"), Map.of()).assertSucceeded();
        int rootCount = ranks == 2 ? 2 : 3;
        // all-gather: 2 algorithms x 5 sizes x 2 kinds; gather and broadcast the same per root.
        int cases = 2 * 5 * 2 + 2 * (2 * 5 * rootCount * 2);
        assertTrue(o.stdout().contains("CHECKED " + cases + " cases"), o.stdout());
    }

    /** Counts whose vectors straddle 24 bytes for 1-, 4-, 8- and 12/16-byte elements. */
    @ParameterizedTest(name = "1x{0}")
    @ValueSource(ints = {2, 3, 5})
    void smallAllreducesInTheFlagsLineMatchTheSequentialReference(int ranks) {
        Jobs.Outcome o = Jobs.run(Placement.singleNode(ranks), 1, AllreduceApps.Check.class,
                List.of("counts=0,1,2,3,6,7,24,25", "algorithms=allreduce.shm,allreduce.shm-doubling,auto"), Map.of()).assertSucceeded();
        assertTrue(o.stdout().contains("ALLREDUCE-CHECKED "), o.stdout());
    }
}
