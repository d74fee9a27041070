package io.railcoll.bench.peer;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerWhereCheckTest {
    private static List<PeerOutput.Where> where(String... netnsOfRank) {
        List<PeerOutput.Where> where = new ArrayList<>();
        for (int r = 0; r < netnsOfRank.length; r++) {
            where.add(new PeerOutput.Where(r, netnsOfRank[r], "host-" + netnsOfRank[r]));
        }
        return where;
    }

    @Test
    void acceptsEveryNodeInItsOwnNamespace() {
        assertEquals(List.of(), PeerWhereCheck.problems(Placement.uniform(2, 2), where("n0", "n0", "n1", "n1")));
        // Uneven nodes, and the records in any order.
        List<PeerOutput.Where> uneven = new ArrayList<>(where("n0", "n1", "n1", "n2", "n2", "n2"));
        java.util.Collections.reverse(uneven);
        assertEquals(List.of(), PeerWhereCheck.problems(Placement.ofCounts(1, 2, 3), uneven));
    }

    /** What the 16-processor machine did with OMPI_MCA_plm=isolated: every rank beside mpirun, in node 0's namespace. */
    @Test
    void refusesNodesSharingOneNamespace() {
        List<String> problems = PeerWhereCheck.problems(Placement.uniform(2, 2), where("n0", "n0", "n0", "n0"));
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.getFirst().contains("nodes [0, 1] all ran in one network namespace, n0 (host host-n0)"),
                problems.getFirst());
        // Two of four nodes merged are found too.
        assertEquals(1, PeerWhereCheck.problems(Placement.uniform(4, 1), where("a", "b", "b", "c")).size());
    }

    @Test
    void refusesANodeSplitOverNamespaces() {
        List<String> problems = PeerWhereCheck.problems(Placement.uniform(2, 2), where("n0", "n1", "n1", "n1"));
        assertTrue(problems.stream().anyMatch(p -> p.contains("node 0's ranks ran in 2 network namespaces")), problems.toString());
    }

    @Test
    void refusesMissingAndForeignRanks() {
        assertEquals(List.of("ranks [2, 3] did not report where they ran"),
                PeerWhereCheck.problems(Placement.uniform(2, 2), where("n0", "n0")));
        List<PeerOutput.Where> extra = new ArrayList<>(where("n0", "n1"));
        extra.add(new PeerOutput.Where(1, "n1", "x"));
        extra.add(new PeerOutput.Where(7, "n1", "x"));
        assertEquals(2, PeerWhereCheck.problems(Placement.uniform(2, 1), extra).size());
    }
}
