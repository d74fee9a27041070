package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point-to-point messages on real jobs (one JVM per rank, shared memory within a node, rails across): seeded random
 * traffic received by wildcard receives and by irecvs posted in random orders, rings and all pairs with sendRecv,
 * messages beside blocking and non-blocking collectives, on sub-communicators beside the world, at sizes up to more
 * than a shared-memory ring and a socket buffer hold. One job per placement runs every case
 * ({@link PointToPointApps.Check}); every rank must check the same number of cases as its peers see.
 */
class PointToPointSystemTest {

    @ParameterizedTest(name = "{0}, {1} rail(s), {2} rail engine")
    @CsvSource({"'3,4,2', 1, single", "'3,4,2', 2, threaded", "1x5, 1, single"})
    void messagesMatchAsMpiSaysOnEveryTransport(String placement, int rails, String engine) {
        Placement p = Placement.parse(placement);
        Jobs.Outcome o = Jobs.run(p, rails, PointToPointApps.Check.class, List.of(),
                Map.of("RAILCOLL_TIMEOUT_MS", "120000", "RAILCOLL_ENGINE", engine)).assertSucceeded();
        for (int r = 0; r < p.size(); r++) {
            Matcher m = Pattern.compile("P2P-OK rank " + r + " cases (\\d+)").matcher(o.stdout());
            assertTrue(m.find(), o.all());
            assertTrue(Integer.parseInt(m.group(1)) > 20, o.all());
        }
        assertEquals(p.size(), o.stdout().lines().filter(l -> l.contains("P2P-OK rank ")).count(), o.all());
    }
}
