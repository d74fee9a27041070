package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RailShapingTest {
    private static final TestbedSpec BASE = TestbedSpec.of(2, 1);

    @Test
    void unlimitedRailWithoutNetemInstallsNothing() {
        RailShaping shaping = new RailShaping(BASE, true);
        assertEquals(List.of(), shaping.nodeEnd("tc", "ns", "rail0"));
        assertEquals(List.of(), shaping.switchEnd("tc", "sw", "n0r0"));
    }

    @Test
    void rateLimitsBothEndsWithAFiftyMillisecondQueue() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit"), true);
        // 2 Gbit/s = 250 MB/s: a 1 ms bucket is 250000 bytes, above the 64 KiB floor.
        assertEquals(250_000, shaping.burstBytes());
        assertEquals(250_000_000L / 20 + 250_000, shaping.queueBytes());
        List<String> tbf = List.of("tbf", "rate", "2000000000bit", "burst", "250000", "latency", "50ms");
        assertEquals(List.of(concat(List.of("tc", "-n", "ns", "qdisc", "add", "dev", "rail0", "root", "handle", "1:"), tbf)),
                shaping.nodeEnd("tc", "ns", "rail0"));
        assertEquals(List.of(concat(List.of("tc", "-n", "sw", "qdisc", "add", "dev", "n0r0", "root", "handle", "1:"), tbf)),
                shaping.switchEnd("tc", "sw", "n0r0"));
    }

    @Test
    void slowRailsKeepABucketOfAtLeastOneGsoPacket() {
        assertEquals(64 * 1024, new RailShaping(BASE.withRate("200mbit"), true).burstBytes());
    }

    @Test
    void netemGoesOnTheSwitchEndOnlyAsRootWithTheLimiterAsItsChild() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit").withNetem("loss 5%  corrupt 1%"), true);
        assertEquals(1, shaping.nodeEnd("tc", "ns", "rail0").size());
        List<List<String>> sw = shaping.switchEnd("tc", "sw", "n0r0");
        assertEquals(2, sw.size());
        long limit = (250_000_000L / 20 + 250_000) / 64;
        assertEquals(List.of("tc", "-n", "sw", "qdisc", "add", "dev", "n0r0", "root", "handle", "1:", "netem",
                "loss", "5%", "corrupt", "1%", "limit", Long.toString(limit)), sw.get(0));
        assertEquals(List.of("tc", "-n", "sw", "qdisc", "add", "dev", "n0r0", "parent", "1:1", "handle", "10:",
                "tbf", "rate", "2000000000bit", "burst", "250000", "latency", "50ms"), sw.get(1));
        assertTrue(RailShaping.isNetem(sw.get(0)));
    }

    @Test
    void unlimitedNetemKeepsItsDefaultLimitAndTheNodeEndStaysEmpty() {
        List<List<String>> unlimited = new RailShaping(BASE.withNetem("loss 1%"), true).switchEnd("tc", "sw", "p");
        assertEquals(1, unlimited.size());
        assertEquals(List.of("loss", "1%"), unlimited.get(0).subList(11, unlimited.get(0).size()));
        assertEquals(List.of(), new RailShaping(BASE.withNetem("loss 1%"), true).nodeEnd("tc", "ns", "rail0"));
    }

    @Test
    void reorderingWithoutADelayGetsOneBecauseTcRefusesIt() {
        List<String> issueExample = new RailShaping(BASE.withNetem("loss 5% corrupt 1% duplicate 1% reorder 5%"), true)
                .switchEnd("tc", "sw", "p").getFirst();
        assertEquals(List.of("loss", "5%", "corrupt", "1%", "duplicate", "1%", "reorder", "5%", "delay", "1ms"),
                issueExample.subList(11, issueExample.size()));
    }

    @Test
    void withoutNetemAnImpairmentWithoutReorderingLeavesTheTokenBucketAlone() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit").withNetem("loss 5% corrupt 1% duplicate 1%"), false);
        assertEquals(new RailShaping(BASE.withRate("2gbit"), false).switchEnd("tc", "sw", "p"), shaping.switchEnd("tc", "sw", "p"));
        assertEquals(List.of(), new RailShaping(BASE.withNetem("loss 5%"), false).switchEnd("tc", "sw", "p"));
    }

    @Test
    void withoutNetemReorderingMakesAnHtbWithTheRailAndALateClass() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit").withNetem("reorder 5%"), false);
        List<String> head = List.of("tc", "-n", "sw");
        assertEquals(List.of(
                concat(head, List.of("qdisc", "add", "dev", "p", "root", "handle", "1:", "htb", "default", "10")),
                concat(head, List.of("class", "add", "dev", "p", "parent", "1:", "classid", "1:10", "htb", "rate", "2000000000bit",
                        "ceil", "2000000000bit", "burst", "250000", "cburst", "250000", "quantum", "65536", "prio", "0")),
                concat(head, List.of("qdisc", "add", "dev", "p", "parent", "1:10", "handle", "10:", "bfifo", "limit",
                        Long.toString(250_000_000L / 20 + 250_000))),
                // one 1514-byte frame per millisecond
                concat(head, List.of("class", "add", "dev", "p", "parent", "1:", "classid", "1:20", "htb", "rate", "12112000bit",
                        "ceil", "12112000bit", "quantum", "1514", "prio", "1")),
                concat(head, List.of("qdisc", "add", "dev", "p", "parent", "1:20", "handle", "20:", "pfifo", "limit", "1000"))),
                shaping.switchEnd("tc", "sw", "p"));
        assertEquals(1, shaping.nodeEnd("tc", "ns", "rail0").size(), "the node end keeps its token bucket");
        // Unlimited rails get a normal class faster than any veth here; slow rails a late class of a tenth.
        assertTrue(new RailShaping(BASE.withNetem("reorder 5%"), false).switchEnd("tc", "sw", "p").get(1).contains("100000000000bit"));
        assertEquals(1_000_000, new RailShaping(BASE.withRate("10mbit").withNetem("reorder 5%"), false).lateBitsPerSecond());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
