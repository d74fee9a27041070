package io.railcoll.schedule;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The resource table reproduces paper 002's Table 1 (4 nodes x 4 ranks) from the schedules, and stays sane on
 * every all-gather and placement.
 */
class ResourceTableTest {
    private static final AlgorithmCatalog CATALOG = AlgorithmCatalog.standard();
    private static final Placement FOUR_BY_FOUR = Placement.uniform(4, 4);

    /** One column of Table 1: the algorithm that implements it, its k and g, and the paper's cells. */
    private record Column(String paperName, String id, int ports, int groups, String connections, String network,
                          List<String> sharedMemoryByPhase) {
    }

    /**
     * Table 1 of paper 002, column by column. The 1-group single-connection algorithm is the SMP-aware Direct of
     * paper 000 with one port: it keeps one connection active and sends 4M in three consecutive steps. The 4-group
     * algorithm is the g-group algorithm with g = 4; its group gather is empty, so its phases are numbered 1-2 as
     * in the paper.
     */
    private static final List<Column> TABLE_1 = List.of(
            new Column("1-group single-connection", "allgather.smp-direct", 1, 1, "1 In, 1 Out", "4M_3S",
                    List.of("1M_4W + 4M_1R", "-", "16M_1W + 16M_4R")),
            new Column("1-group multi-connection", "allgather.mc-1group", 1, 1, "3 In, 3 Out", "4M_3C",
                    List.of("1M_4W + 4M_1R", "-", "16M_1W + 16M_4R")),
            new Column("4-group gather-based multi-connection", "allgather.mc-gather-based", 1, 1, "3 In, 3 Out",
                    "4M_3C",
                    // The paper's phase 3 writes 16M: its broadcast copies the whole result. Every rank already
                    // holds its node's 4 blocks after phase 1, so railcoll's gatherer writes only the other 12.
                    List.of("1M_4W + 4M_4R", "-", "12M_1W + 16M_4R")),
            new Column("2-group multi-connection", "allgather.mc-2group", 1, 2, "6 In, 6 Out", "2M_6C",
                    List.of("1M_4W + 2M_2R", "-", "8M_2W + 16M_4R")),
            new Column("4-group multi-connection", "allgather.mc-groups", 1, 4, "12 In, 12 Out", "1M_12C",
                    List.of("-", "4M_4W + 16M_4R")));

    @Test
    void reproducesPaper002Table1() {
        for (Column column : TABLE_1) {
            ResourceTable table = ResourceTable.of(CATALOG.byId(column.id()), FOUR_BY_FOUR, column.ports(),
                    column.groups());
            for (int node = 0; node < 4; node++) {
                String where = column.paperName() + " (" + column.id() + "), node " + node;
                assertEquals(column.connections(), table.connections(node), where + ": connections");
                assertEquals(column.network(), table.network(node), where + ": network");
                List<ResourceTable.PhaseUse> phases = table.node(node);
                assertEquals(column.sharedMemoryByPhase().size(), phases.size(), where + ": phases " + table.phases());
                for (int p = 0; p < phases.size(); p++) {
                    ResourceTable.PhaseUse use = phases.get(p);
                    assertEquals(column.sharedMemoryByPhase().get(p), use.sharedMemory(), where + ": phase " + (p + 1));
                    // The paper's row is "outbound or inbound": the two are the same on a uniform placement.
                    assertEquals(use.networkOut(), use.networkIn(), where + ": phase " + (p + 1) + " in vs out");
                }
            }
        }
    }

    @Test
    void theGatherBasedDeviationIsTheOnlyOne() {
        // Broadcasting the whole result, as the paper does, would write 16M; the 4 the node already has are skipped.
        ResourceTable table = ResourceTable.of(CATALOG.byId("allgather.mc-gather-based"), FOUR_BY_FOUR, 1, 1);
        ResourceTable.PhaseUse broadcast = table.node(0).get(2);
        assertEquals(12L, broadcast.sharedWrites().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(1, broadcast.sharedWrites().size());
    }

    @Test
    void ringsShowWhatRailcollMoves() {
        // One ring per ordered pair: the 1-group master writes the whole result once per local rank.
        ResourceTable table = ResourceTable.of(CATALOG.byId("allgather.mc-1group"), FOUR_BY_FOUR, 1, 1);
        assertEquals("1M_3W + 3M_1R", table.node(0).get(0).rings());
        assertEquals("48M_1W + 16M_3R", table.node(0).get(2).rings());
        ResourceTable fourGroup = ResourceTable.of(CATALOG.byId("allgather.mc-groups"), FOUR_BY_FOUR, 1, 4);
        assertEquals("12M_4W + 12M_4R", fourGroup.node(3).get(1).rings());
    }

    @Test
    void singleConnectionDirectWithMorePortsUsesThemAll() {
        ResourceTable table = ResourceTable.of(CATALOG.byId("allgather.smp-direct"), FOUR_BY_FOUR, 2, 1);
        assertEquals("2 In, 2 Out", table.connections(0));
        assertEquals("4M_2C, 4M_1C", table.network(0));
    }

    @Test
    void everyAllgatherReceivesEveryOtherNodeOverTheNetwork() {
        List<Placement> placements = List.of(Placement.uniform(1, 1), Placement.singleNode(5), Placement.ofCounts(3, 4, 2),
                Placement.uniform(5, 2), Placement.ofNodeIds(1, 0, 0, 2, 1, 2, 2, 1, 0));
        for (Algorithm algorithm : CATALOG.forCollective(Collective.ALLGATHER)) {
            for (Placement placement : placements) {
                if (algorithm instanceof MulticastUser
                        || algorithm.unsupportedReason(new Shape(Collective.ALLGATHER, placement, 1, 2, 0)).isPresent()) {
                    continue; // the table counts connections (a multicast has none); any algorithm that cannot run here
                }
                for (int k = 1; k <= 3; k++) {
                    ResourceTable table = ResourceTable.of(algorithm, placement, k, 2);
                    for (int node = 0; node < placement.nodeCount(); node++) {
                        long inbound = 0;
                        for (ResourceTable.PhaseUse use : table.node(node)) {
                            inbound += use.inboundSteps().stream().flatMap(List::stream).mapToLong(Long::longValue).sum();
                        }
                        String where = algorithm.id() + " on " + placement.describe() + " k=" + k + " node " + node;
                        assertTrue(inbound >= placement.size() - placement.ranksOnNode(node), where + ": " + inbound);
                        assertEquals(placement.nodeCount() == 1, table.network(node).equals("-"), where);
                    }
                    assertFalse(table.format().isBlank());
                }
            }
        }
    }

    @Test
    void aMulticastAlgorithmIsRefusedNotShownAsItsGather() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResourceTable.of(CATALOG.byId("allgather.smp-gather-mcast"), FOUR_BY_FOUR, 1, 1));
        assertTrue(e.getMessage().contains("point-to-point"), e.getMessage());
    }

    @Test
    void notationFollowsThePaper() {
        assertEquals("4M_3S", ResourceTable.notation(List.of(List.of(4L), List.of(4L), List.of(4L))));
        assertEquals("2M_6C", ResourceTable.notation(List.of(List.of(2L, 2L, 2L, 2L, 2L, 2L))));
        assertEquals("4M_2C_2S", ResourceTable.notation(List.of(List.of(4L, 4L), List.of(4L, 4L))));
        assertEquals("4M_1C + 2M_1C, 8M_1C", ResourceTable.notation(List.of(List.of(4L, 2L), List.of(8L))));
        assertEquals("-", ResourceTable.notation(List.of()));
    }

    @Test
    void formatGroupsIdenticalNodes() {
        String text = ResourceTable.of(CATALOG.byId("allgather.mc-2group"), FOUR_BY_FOUR, 1, 2).format();
        assertTrue(text.contains("nodes 0-3"), text);
        assertTrue(text.contains("2 inter-node all-gather  6 In, 6 Out  2M_6C"), text);
    }
}
