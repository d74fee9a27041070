package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RailShapingTest {
    private static final TestbedSpec BASE = TestbedSpec.of(2, 1);

    @Test
    void unlimitedRailWithoutNetemInstallsNothing() {
        RailShaping shaping = new RailShaping(BASE);
        assertEquals(List.of(), shaping.nodeEnd("tc", "ns", "rail0"));
        assertEquals(List.of(), shaping.switchEnd("tc", "sw", "n0r0"));
    }

    @Test
    void rateLimitsBothEndsWithAFiftyMillisecondQueue() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit"));
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
        assertEquals(64 * 1024, new RailShaping(BASE.withRate("200mbit")).burstBytes());
    }

    @Test
    void netemGoesOnTheSwitchEndOnlyAsRootWithTheLimiterAsItsChild() {
        RailShaping shaping = new RailShaping(BASE.withRate("2gbit").withNetem("loss 5%  corrupt 1%"));
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
    void aUsersNetemLimitWinsAndUnlimitedNetemKeepsTheDefault() {
        List<List<String>> limited = new RailShaping(BASE.withRate("1gbit").withNetem("limit 50 loss 1%")).switchEnd("tc", "sw", "p");
        assertEquals(List.of("limit", "50", "loss", "1%"), limited.get(0).subList(11, limited.get(0).size()));
        List<List<String>> unlimited = new RailShaping(BASE.withNetem("delay 1ms reorder 5%")).switchEnd("tc", "sw", "p");
        assertEquals(1, unlimited.size());
        assertEquals(List.of("delay", "1ms", "reorder", "5%"), unlimited.get(0).subList(11, unlimited.get(0).size()));
        assertEquals(List.of(), new RailShaping(BASE.withNetem("loss 1%")).nodeEnd("tc", "ns", "rail0"));
    }

    @Test
    void reorderingWithoutADelayGetsOneBecauseTcRefusesIt() {
        List<String> issueExample = new RailShaping(BASE.withNetem("loss 5% corrupt 1% duplicate 1% reorder 5%"))
                .switchEnd("tc", "sw", "p").getFirst();
        assertEquals(List.of("loss", "5%", "corrupt", "1%", "duplicate", "1%", "reorder", "5%", "delay", "1ms"),
                issueExample.subList(11, issueExample.size()));
        List<String> ownDelay = new RailShaping(BASE.withNetem("reorder 25% delay 10ms")).switchEnd("tc", "sw", "p").getFirst();
        assertEquals(List.of("reorder", "25%", "delay", "10ms"), ownDelay.subList(11, ownDelay.size()));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
