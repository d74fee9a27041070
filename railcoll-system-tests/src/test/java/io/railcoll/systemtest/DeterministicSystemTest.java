package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deterministic option (decision 0091) on real processes over real loopback rails and shared memory, one rail:
 * two jobs, 3,4,2 and 1x5, with {@code RAILCOLL_DETERMINISTIC=on}. Each checks every reduction (blocking and
 * non-blocking, float and double sums, a non-commutative operator, counts 1..65537) bit for bit against the
 * sequential rank-order fold, and prints a digest of every rank's result bits per case. The 3,4,2 job also runs the
 * cases on five of its ranks spread over its three nodes (placement 1,2,2: TCP between nodes, shared memory within),
 * whose digests must equal those of the 1x5 job (one node: shared memory only) case for case.
 */
class DeterministicSystemTest {
    private static final Map<String, String> DETERMINISTIC = Map.of("RAILCOLL_DETERMINISTIC", "on",
            "RAILCOLL_TIMEOUT_MS", "120000");
    private static final Pattern DIGEST = Pattern.compile("DIGEST (\\d+) (\\S+) ([0-9a-f]{64})");

    @Test
    void fiveRanksGiveTheSameBitsOnOneNodeAndSpreadOverThree() {
        Jobs.Outcome spread = Jobs.run(Placement.parse("3,4,2"), 1, DeterministicApps.Check.class, List.of(),
                DETERMINISTIC).assertSucceeded();
        Jobs.Outcome oneNode = Jobs.run(Placement.parse("1x5"), 1, DeterministicApps.Check.class, List.of(),
                DETERMINISTIC).assertSucceeded();
        Map<String, String> spreadFive = digests(spread.stdout(), 5);
        Map<String, String> oneNodeFive = digests(oneNode.stdout(), 5);
        assertTrue(oneNodeFive.size() >= 40, "cases on 1x5: " + oneNodeFive.size() + "\n" + oneNode.stdout());
        assertEquals(oneNodeFive, spreadFive, "the five ranks' results differ between 1x5 and 1,2,2 (in 3,4,2)");
        assertEquals(oneNodeFive.size(), digests(spread.stdout(), 9).size(), "cases on 9 ranks");
        // Rank 0 of the world counts the world's cases (it is not one of the five).
        assertTrue(spread.stdout().contains("DETERMINISTIC-CHECKED " + oneNodeFive.size()), spread.stdout());
        assertTrue(oneNode.stdout().contains("DETERMINISTIC-CHECKED " + oneNodeFive.size()), oneNode.stdout());
    }

    /** Case name to digest, for the lines printed by the communicators of {@code size} ranks. */
    private static Map<String, String> digests(String stdout, int size) {
        Map<String, String> out = new TreeMap<>();
        Matcher m = DIGEST.matcher(stdout);
        while (m.find()) {
            if (Integer.parseInt(m.group(1)) == size) {
                out.put(m.group(2), m.group(3));
            }
        }
        return out;
    }
}
