package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QdiscStatsTest {

    @Test
    void parsesATokenBucketShownForOneDevice() {
        String out = """
                qdisc tbf 8007: root refcnt 3 rate 200Mbit burst 131050b lat 50ms\s
                 Sent 52626188 bytes 34766 pkt (dropped 3, overlimits 2305 requeues 0)\s
                 backlog 0b 0p requeues 0
                """;
        assertEquals(List.of(new QdiscStats("", "tbf", "8007:", "root", 52626188, 34766, 3, 2305)), QdiscStats.parse(out));
    }

    @Test
    void parsesNetemWithItsChildAndDeviceNames() {
        String out = """
                qdisc netem 1: dev n0r0 root refcnt 2 limit 195312 loss 5% corrupt 1%
                 Sent 1000 bytes 10 pkt (dropped 2, overlimits 0 requeues 0)
                 backlog 0b 0p requeues 0
                qdisc tbf 10: dev n0r0 parent 1:1 rate 2Gbit burst 250000b lat 50ms
                 Sent 900 bytes 9 pkt (dropped 1, overlimits 7 requeues 0)
                 backlog 0b 0p requeues 0
                qdisc noqueue 0: dev br0 root refcnt 2
                 Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0)
                 backlog 0b 0p requeues 0
                """;
        List<QdiscStats> stats = QdiscStats.parse(out);
        assertEquals(3, stats.size());
        assertEquals(new QdiscStats("n0r0", "netem", "1:", "root", 1000, 10, 2, 0), stats.get(0));
        assertEquals(new QdiscStats("n0r0", "tbf", "10:", "1:1", 900, 9, 1, 7), stats.get(1));
        assertTrue(stats.get(0).isRoot());
        assertFalse(stats.get(1).isRoot());
        assertEquals("br0", stats.get(2).device());

        LinkStats link = new LinkStats(0, 0, List.of(), stats.subList(0, 2));
        assertEquals(0, link.bytesFromNode());
        assertEquals(1000, link.bytesToNode());
        assertEquals(2, link.drops());
        assertEquals(1, link.limiterDrops());
    }

    @Test
    void qdiscsWithoutCountersAreSkipped() {
        assertEquals(List.of(), QdiscStats.parse("qdisc noqueue 0: root refcnt 2\n"));
        assertEquals(List.of(), QdiscStats.parse(""));
    }
}
