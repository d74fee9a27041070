package io.railcoll.systemtest;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher's processor binding (RAILCOLL_BIND), seen from inside real rank processes. */
class CpuBindingSystemTest {
    private static final Pattern LINE = Pattern.compile("AFFINITY (\\d+) (\\S+) (\\S+)");

    @Test
    void boundRanksEachRunOnOneProcessorOfTheirOwnAndKnowTheHostsCount() {
        int cpus = Runtime.getRuntime().availableProcessors();
        int ranks = Math.min(cpus, 4);
        Jobs.Outcome o = Jobs.run(Placement.uniform(1, ranks), 1, RailApps.PrintAffinity.class, List.of(),
                Map.of("RAILCOLL_BIND", "core")).assertSucceeded();
        Matcher m = LINE.matcher(o.stdout());
        Set<String> seen = new HashSet<>();
        int lines = 0;
        while (m.find()) {
            lines++;
            assertTrue(m.group(2).matches("\\d+"), "rank " + m.group(1) + " may run on " + m.group(2) + ", not one processor");
            seen.add(m.group(2));
            assertEquals(Integer.toString(cpus), m.group(3), "RAILCOLL_NODE_CPUS of rank " + m.group(1));
        }
        assertEquals(ranks, lines, o.all());
        assertEquals(ranks, seen.size(), "every rank on a processor of its own: " + o.stdout());
    }

    @Test
    void unboundRanksKeepTheLaunchersProcessors() {
        Jobs.Outcome o = Jobs.run(Placement.uniform(1, 2), 1, RailApps.PrintAffinity.class, List.of(),
                Map.of("RAILCOLL_BIND", "none")).assertSucceeded();
        Matcher m = LINE.matcher(o.stdout());
        int lines = 0;
        while (m.find()) {
            lines++;
            assertEquals("null", m.group(3), "an unbound rank gets no RAILCOLL_NODE_CPUS");
            assertEquals(Runtime.getRuntime().availableProcessors(), count(m.group(2)), "rank " + m.group(1));
        }
        assertEquals(2, lines, o.all());
    }

    private static int count(String list) {
        int n = 0;
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            n += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
        }
        return n;
    }
}
