package io.railcoll.launcher.testbed;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What testbed to build: how many nodes and rails, how fast each rail is, what impairment it has, which
 * rail carries multicast. Validated on construction so a bad option fails before anything is created.
 * Immutable; build one with {@link #of(int, int)} and the {@code with...} methods.
 *
 * @param nodes         number of emulated nodes, one network namespace each: 1..254 (the last octet of a
 *                      rail address is {@code node + 1})
 * @param rails         number of rails, one bridge and one interface per node each: 1..256 (the third
 *                      octet of a rail address is the rail)
 * @param rate          per-rail rate in each direction, in {@code tc} syntax with a unit ({@code "2gbit"},
 *                      {@code "200mbit"}, {@code "125mbps"} = bytes), or {@code null} for no limit
 * @param netem         the impairment of every rail in netem syntax (e.g. {@code "loss 5% corrupt 1%"}), or
 *                      {@code null} for none; only loss, corrupt, duplicate and reorder percentages, see
 *                      {@link RailImpairment} (made with netem where the kernel has it, else emulated)
 * @param multicastRail the rail that gets the 224.0.0.0/4 route in every node, or {@code null} for no
 *                      multicast route (to exercise the multicast fail-over path)
 * @param mtu           MTU of every rail interface, 68..65535 (default 1500)
 */
public record TestbedSpec(int nodes, int rails, String rate, String netem, Integer multicastRail, int mtu) {
    /** Default MTU: plain Ethernet, what a real cluster's TCP rails would have. */
    public static final int DEFAULT_MTU = 1500;
    public static final int MAX_NODES = 254;
    public static final int MAX_RAILS = 256;

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)");

    public TestbedSpec {
        if (nodes < 1 || nodes > MAX_NODES) {
            throw new IllegalArgumentException("nodes must be 1.." + MAX_NODES + ", got " + nodes);
        }
        if (rails < 1 || rails > MAX_RAILS) {
            throw new IllegalArgumentException("rails must be 1.." + MAX_RAILS + ", got " + rails);
        }
        if (rate != null) {
            rate = rate.strip().toLowerCase(Locale.ROOT);
            parseRateBitsPerSecond(rate); // throws with the accepted syntax
        }
        if (netem != null) {
            netem = RailImpairment.parse(netem).spec(); // throws naming the word it cannot take
        }
        if (multicastRail != null && (multicastRail < 0 || multicastRail >= rails)) {
            throw new IllegalArgumentException("multicast rail must be 0.." + (rails - 1) + " or none, got " + multicastRail);
        }
        if (mtu < 68 || mtu > 65535) {
            throw new IllegalArgumentException("mtu must be 68..65535, got " + mtu);
        }
    }

    /** {@code nodes} x {@code rails}, unlimited rate, no netem, multicast on rail 0, MTU 1500. */
    public static TestbedSpec of(int nodes, int rails) {
        return new TestbedSpec(nodes, rails, null, null, 0, DEFAULT_MTU);
    }

    /** The same with a per-rail rate ({@code "2gbit"}), or {@code null} for unlimited. */
    public TestbedSpec withRate(String newRate) {
        return new TestbedSpec(nodes, rails, newRate, netem, multicastRail, mtu);
    }

    /** The same with netem options on every rail, or {@code null} for none. */
    public TestbedSpec withNetem(String newNetem) {
        return new TestbedSpec(nodes, rails, rate, newNetem, multicastRail, mtu);
    }

    /** The same with the multicast route on {@code rail}, or {@code null} for no multicast route. */
    public TestbedSpec withMulticastRail(Integer rail) {
        return new TestbedSpec(nodes, rails, rate, netem, rail, mtu);
    }

    public TestbedSpec withMtu(int newMtu) {
        return new TestbedSpec(nodes, rails, rate, netem, multicastRail, newMtu);
    }

    /** The parsed impairment, or {@code null} for none. */
    public RailImpairment impairment() {
        return netem == null ? null : RailImpairment.parse(netem);
    }

    /** The rate in bits per second, or empty when rails are unlimited. */
    public OptionalLong rateBitsPerSecond() {
        return rate == null ? OptionalLong.empty() : OptionalLong.of(parseRateBitsPerSecond(rate));
    }

    /** With a rate: the token bucket of every rail end in bytes (see {@link RailShaping}); empty without one. */
    public OptionalLong burstBytes() {
        return rate == null ? OptionalLong.empty() : OptionalLong.of(new RailShaping(this, false).burstBytes());
    }

    /**
     * Parses a {@code tc} rate with its unit. Units as in tc(8): {@code bit kbit mbit gbit tbit} are bits per
     * second (SI, 1000-based), {@code bps kbps mbps gbps tbps} bytes per second. A bare number is refused
     * because tc would read it as bytes per second, which is rarely what was meant.
     */
    public static long parseRateBitsPerSecond(String rate) {
        Matcher m = RATE.matcher(rate.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("rate must be a number with a tc unit (bit, kbit, mbit, gbit, tbit, "
                    + "or bps, kbps, mbps, gbps, tbps for bytes), e.g. \"2gbit\"; got \"" + rate + "\"");
        }
        String unit = m.group(2);
        long scale = switch (unit.charAt(0)) {
            case 'k' -> 1_000L;
            case 'm' -> 1_000_000L;
            case 'g' -> 1_000_000_000L;
            case 't' -> 1_000_000_000_000L;
            default -> 1L;
        };
        if (unit.endsWith("bps")) {
            scale *= 8;
        }
        BigDecimal bits = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(scale));
        // Below 8 kbit/s tc's rate tables lose precision and a 1500-byte packet takes over a second.
        if (bits.compareTo(BigDecimal.valueOf(8_000)) < 0 || bits.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 8)) > 0) {
            throw new IllegalArgumentException("rate must be between 8kbit and " + (Long.MAX_VALUE / 8) + "bit, got \"" + rate + "\"");
        }
        return bits.longValue();
    }
}
