package io.railcoll.launcher.testbed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The {@code tc} commands that turn one veth end into a rail of the spec's rate and impairment.
 * Pure: it only builds argument vectors, so the choice below is unit-tested without root.
 *
 * <p><b>Rate.</b> Each end gets a token bucket, {@code tbf rate R burst B latency 50ms}, so the rail is limited
 * in both directions (node to switch at the node's end, switch to node at the switch's end). The queue
 * is what matters: a bucket whose queue holds 5 ms dropped packets under all-to-all bursts, and TCP's
 * retransmission time-outs (200 ms and up) then dominated every measurement; 50 ms did not drop. tbf
 * turns {@code latency} into a byte limit of {@code R x 50 ms + B}, so the queue scales with the rate.
 * The bucket {@code B} is {@code max(R x 1 ms, 64 KiB)}: at least one 64 KiB GSO super-packet (so tbf
 * never has to split one), and about a millisecond of traffic, so the shaper's timer fires at most about
 * a thousand times a second per link on a machine whose cores are shared. tbf over htb: one qdisc per end
 * does the job and is the one the kernel here has (no fq_codel, no prio); pfifo behind htb would need a
 * packet limit guessed from a packet size.
 *
 * <p><b>Netem.</b> Impairment goes on the switch's end of each link only, as the root qdisc with the tbf
 * as its child (the arrangement of tc-netem(8)): every packet crosses exactly one netem (sender's node
 * end, bridge, receiver's switch end), and each receiver of a multicast packet draws its loss
 * independently, as behind a real switch port. Netem acts first, so a lost packet does not use rate and
 * a duplicate does. Netem's own queue limit is raised to cover the tbf queue counted in minimum-size
 * frames, because some kernels count the child's packets against it and the default 1000 would bring
 * back the short-queue drops. Netem reorders by sending some packets without the delay the others get, so
 * tc refuses {@code reorder} without {@code delay}; specs have no delay ({@link RailImpairment} refuses it,
 * since it cannot be emulated), so {@code delay 1ms} is added with {@code reorder} (visible in {@code tc qdisc show}), a delay far below any time-out of the protocols
 * under test.
 *
 * <p><b>Without netem</b> ({@link RailImpairment} says how the rest is emulated) the switch's end keeps its
 * token bucket unless the impairment reorders. Then it is an htb with two classes: {@code 1:10}, the rail
 * (rate and burst as the tbf's, or 100 Gbit/s when the rail is unlimited) with a byte fifo of the tbf's queue
 * as its leaf, and {@code 1:20}, the late class at lower priority, limited to one full-size frame per
 * millisecond (at most a tenth of the rail's rate), where nftables puts the packets to be overtaken. The late
 * class is not part of the rail's rate: it adds at most its own.
 */
final class RailShaping {
    static final int QUEUE_LATENCY_MS = 50;
    static final long MIN_BURST_BYTES = 64 * 1024;
    /** The rate of the normal htb class on an unlimited rail: above anything a veth carries here. */
    static final long UNLIMITED_BITS_PER_SECOND = 100_000_000_000L;
    private static final int MIN_FRAME_BYTES = 64;

    private final OptionalLong rateBitsPerSecond;
    private final int mtu;
    /** Null without impairment. */
    private final RailImpairment impairment;
    private final boolean withNetem;

    /**
     * @param spec      the testbed
     * @param withNetem whether the kernel has netem; without, an impairment is left to nftables, and only the
     *                  htb classes for reordering are made here
     */
    RailShaping(TestbedSpec spec, boolean withNetem) {
        this.rateBitsPerSecond = spec.rateBitsPerSecond();
        this.mtu = spec.mtu();
        this.impairment = spec.impairment();
        this.withNetem = withNetem;
    }

    /** Token-bucket size in bytes (only meaningful with a rate). */
    long burstBytes() {
        return Math.max(rateBitsPerSecond.orElse(0) / 8 / 1000, MIN_BURST_BYTES);
    }

    /** Bytes the limiter queues before dropping: what tbf derives from {@code latency 50ms}. */
    long queueBytes() {
        return rateBitsPerSecond.orElse(0) / 8 * QUEUE_LATENCY_MS / 1000 + burstBytes();
    }

    /** The rate of the late (reordering) class: a full frame per millisecond, at most a tenth of the rail. */
    long lateBitsPerSecond() {
        long frameEveryMillisecond = (long) (mtu + 14) * 8 * 1000;
        return rateBitsPerSecond.isPresent() ? Math.max(8_000, Math.min(frameEveryMillisecond, rateBitsPerSecond.getAsLong() / 10))
                : frameEveryMillisecond;
    }

    /** Commands for the node's end of a link (traffic leaving the node). */
    List<List<String>> nodeEnd(String tc, String namespace, String device) {
        List<List<String>> commands = new ArrayList<>();
        if (rateBitsPerSecond.isPresent()) {
            commands.add(tbf(tc, namespace, device, List.of("root", "handle", "1:")));
        }
        return commands;
    }

    /** Commands for the switch's end of a link (traffic going to the node). */
    List<List<String>> switchEnd(String tc, String namespace, String device) {
        List<List<String>> commands = new ArrayList<>();
        if (impairment != null && withNetem) {
            List<String> netemCommand = new ArrayList<>(List.of(tc, "-n", namespace, "qdisc", "add", "dev", device,
                    "root", "handle", "1:", "netem"));
            netemCommand.addAll(impairment.netemOptions());
            if (rateBitsPerSecond.isPresent()) {
                netemCommand.add("limit");
                netemCommand.add(Long.toString(Math.max(1000, queueBytes() / MIN_FRAME_BYTES)));
            }
            commands.add(netemCommand);
            if (rateBitsPerSecond.isPresent()) {
                commands.add(tbf(tc, namespace, device, List.of("parent", "1:1", "handle", "10:")));
            }
            return commands;
        }
        if (impairment != null && impairment.reorders()) {
            List<String> qdisc = List.of(tc, "-n", namespace, "qdisc", "add", "dev", device);
            List<String> clazz = List.of(tc, "-n", namespace, "class", "add", "dev", device);
            commands.add(concat(qdisc, "root", "handle", "1:", "htb", "default", "10"));
            String normal = (rateBitsPerSecond.isPresent() ? rateBitsPerSecond.getAsLong() : UNLIMITED_BITS_PER_SECOND) + "bit";
            commands.add(concat(clazz, "parent", "1:", "classid", RailImpairment.NORMAL_CLASS, "htb", "rate", normal, "ceil", normal,
                    "burst", Long.toString(burstBytes()), "cburst", Long.toString(burstBytes()), "quantum", "65536", "prio", "0"));
            commands.add(concat(qdisc, "parent", RailImpairment.NORMAL_CLASS, "handle", "10:", "bfifo", "limit",
                    Long.toString(rateBitsPerSecond.isPresent() ? queueBytes() : 1000L * (mtu + 14))));
            String late = lateBitsPerSecond() + "bit";
            commands.add(concat(clazz, "parent", "1:", "classid", RailImpairment.LATE_CLASS, "htb", "rate", late, "ceil", late,
                    "quantum", Integer.toString(mtu + 14), "prio", "1"));
            commands.add(concat(qdisc, "parent", RailImpairment.LATE_CLASS, "handle", "20:", "pfifo", "limit", "1000"));
            return commands;
        }
        if (rateBitsPerSecond.isPresent()) {
            commands.add(tbf(tc, namespace, device, List.of("root", "handle", "1:")));
        }
        return commands;
    }

    /** True if {@code command} is one that installs netem (so its failure can name the likely cause). */
    static boolean isNetem(List<String> command) {
        return command.contains("netem");
    }

    private List<String> tbf(String tc, String namespace, String device, List<String> position) {
        List<String> command = new ArrayList<>(List.of(tc, "-n", namespace, "qdisc", "add", "dev", device));
        command.addAll(position);
        command.addAll(List.of("tbf", "rate", rateBitsPerSecond.getAsLong() + "bit",
                "burst", Long.toString(burstBytes()), "latency", QUEUE_LATENCY_MS + "ms"));
        return command;
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> command = new ArrayList<>(head);
        command.addAll(Arrays.asList(tail));
        return command;
    }
}
