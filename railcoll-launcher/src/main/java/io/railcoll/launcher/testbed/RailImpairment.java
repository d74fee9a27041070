package io.railcoll.launcher.testbed;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The impairment of every rail, parsed from a netem-style spec such as {@code "loss 5% corrupt 1% duplicate 1%
 * reorder 5%"}, and the two ways of making it: {@code tc netem} where the kernel has it, otherwise an emulation
 * with nftables rules and an htb class on each rail's switch port. Pure: it builds argument vectors and rule
 * text only, so both are unit-tested without root.
 *
 * <p><b>Spec.</b> Any of {@code loss P%}, {@code corrupt P%}, {@code duplicate P%}, {@code reorder P%}, each at
 * most once, in any order; {@code P} from 0 to 100 with at most four decimals (the emulation draws from a
 * million). Every other word (netem's {@code delay}, {@code rate}, correlations such as {@code loss 5% 25%},
 * {@code limit}, ...) is refused, naming the word: the emulation cannot make those faithfully, and one spec
 * must mean the same thing on every kernel.
 *
 * <p><b>Emulation</b> (see docs/testbed.md for what each does to packets, measured): one nftables table
 * {@code netdev railcoll} in the switch namespace with one chain per switch port, on the port's <i>egress</i>
 * hook, so a packet is impaired once on its way from the bridge to one node (where netem would sit), and every
 * receiver of a multicast packet draws independently. Only IPv4 packets are impaired (UDP, TCP, ICMP alike);
 * ARP is not, so a lost neighbour reply cannot stall a connection for a second. Per packet, in order:
 * <ol>
 *   <li>duplicate: with probability {@code P}, {@code dup to} the same port; the copy is marked so it is not
 *       duplicated again, and then goes through the rules below like any packet (as netem's copy does);</li>
 *   <li>loss: {@code drop};</li>
 *   <li>corrupt: one bit of the IPv4 identification field is flipped and the header checksum is left as it
 *       was, so the receiving node's IP layer drops the packet as a checksum error (counted in
 *       {@code IpExtInCsumErrors}). This is what netem's corruption comes to in practice, where the L4
 *       checksum catches the flipped bit; a corrupted payload never reaches a socket in either;</li>
 *   <li>reorder: {@code meta priority} puts the packet in a second, lower-priority htb class limited to
 *       about one full-size frame per millisecond, so it waits (about a millisecond per packet queued there)
 *       while later packets of the normal class overtake it. A packet with nothing behind it is not
 *       overtaken, as with netem's reordering.</li>
 * </ol>
 *
 * @param spec         the spec as given (normalized spacing), shown in messages and descriptions
 * @param lossPpm      packets dropped, per million
 * @param corruptPpm   packets corrupted, per million
 * @param duplicatePpm packets duplicated, per million
 * @param reorderPpm   packets held back, per million
 */
public record RailImpairment(String spec, int lossPpm, int corruptPpm, int duplicatePpm, int reorderPpm) {
    /** Draws are made out of this many. */
    static final int PPM = 1_000_000;
    /** The name of the nftables table in the switch namespace. */
    static final String NFT_TABLE = "railcoll";
    /** Mark of a duplicate while it goes through its port's chain, so it is not duplicated again. */
    static final String DUPLICATE_MARK = "0x72630001";
    /** The htb class held-back (reordered) packets wait in; the normal class is {@code 1:10}. */
    static final String LATE_CLASS = "1:20";
    static final String NORMAL_CLASS = "1:10";
    /** The delay netem needs for reordering when the spec gives none (netem reorders by not delaying some). */
    static final String NETEM_REORDER_DELAY = "1ms";

    private static final Set<String> KINDS = Set.of("loss", "corrupt", "duplicate", "reorder");
    private static final Set<String> NETEM_ONLY = Set.of("delay", "rate", "limit", "gap", "slot", "distribution",
            "jitter", "ecn", "loss_random", "state", "gemodel", "random", "seed");
    private static final BigDecimal MILLION_PER_PERCENT = BigDecimal.valueOf(PPM / 100);

    public RailImpairment {
        for (int ppm : new int[] {lossPpm, corruptPpm, duplicatePpm, reorderPpm}) {
            if (ppm < 0 || ppm > PPM) {
                throw new IllegalArgumentException("rates must be 0.." + PPM + " per million, got " + ppm);
            }
        }
    }

    /**
     * Parses a spec; throws {@link IllegalArgumentException} naming the first word it cannot take and saying
     * what it accepts.
     */
    public static RailImpairment parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("rail impairment is empty; " + accepted());
        }
        String[] words = spec.strip().split("\\s+");
        Map<String, Integer> rates = new LinkedHashMap<>();
        for (int i = 0; i < words.length; i++) {
            String word = words[i].toLowerCase(Locale.ROOT);
            if (!KINDS.contains(word)) {
                String why;
                if (NETEM_ONLY.contains(word)) {
                    why = "is a tc netem option the testbed cannot emulate on kernels without netem, so it is refused everywhere";
                } else if (isPercent(word) && i > 0) {
                    why = "is a second value after \"" + words[i - 2 < 0 ? 0 : i - 2] + "\" (netem's correlation), which the testbed cannot emulate";
                } else {
                    why = "is not an impairment";
                }
                throw new IllegalArgumentException("rail impairment \"" + spec.strip() + "\": \"" + words[i] + "\" " + why
                        + "; " + accepted());
            }
            if (rates.containsKey(word)) {
                throw new IllegalArgumentException("rail impairment \"" + spec.strip() + "\": \"" + word + "\" is given twice");
            }
            if (i + 1 >= words.length || !isPercent(words[i + 1])) {
                throw new IllegalArgumentException("rail impairment \"" + spec.strip() + "\": \"" + word + "\" needs a percentage such as "
                        + word + " 5%" + (i + 1 < words.length ? ", got \"" + words[i + 1] + "\"" : ""));
            }
            rates.put(word, ppm(spec, words[++i]));
        }
        return new RailImpairment(String.join(" ", words), rates.getOrDefault("loss", 0), rates.getOrDefault("corrupt", 0),
                rates.getOrDefault("duplicate", 0), rates.getOrDefault("reorder", 0));
    }

    private static String accepted() {
        return "give any of loss P%, corrupt P%, duplicate P%, reorder P% (P from 0 to 100), "
                + "e.g. \"loss 5% corrupt 1% duplicate 1% reorder 5%\"";
    }

    private static boolean isPercent(String word) {
        return word.matches("\\d+(\\.\\d+)?%");
    }

    private static int ppm(String spec, String percent) {
        BigDecimal p = new BigDecimal(percent.substring(0, percent.length() - 1));
        if (p.compareTo(BigDecimal.valueOf(100)) > 0) {
            throw new IllegalArgumentException("rail impairment \"" + spec.strip() + "\": " + percent + " is over 100%");
        }
        BigDecimal ppm = p.multiply(MILLION_PER_PERCENT);
        if (ppm.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("rail impairment \"" + spec.strip() + "\": " + percent
                    + " has more than four decimals (rates are drawn per million packets)");
        }
        return ppm.intValueExact();
    }

    /** Whether reordering is asked for (the emulation then needs the htb classes on the switch port). */
    boolean reorders() {
        return reorderPpm > 0;
    }

    /** The options for {@code tc qdisc add ... netem}, with the delay netem needs when reordering. */
    List<String> netemOptions() {
        List<String> options = new ArrayList<>();
        add(options, "loss", lossPpm);
        add(options, "corrupt", corruptPpm);
        add(options, "duplicate", duplicatePpm);
        add(options, "reorder", reorderPpm);
        if (reorders()) {
            options.addAll(List.of("delay", NETEM_REORDER_DELAY));
        }
        return options;
    }

    private static void add(List<String> options, String kind, int ppm) {
        if (ppm > 0) {
            options.addAll(List.of(kind, percent(ppm)));
        }
    }

    /** A rate per million as a percentage without trailing zeros: 50000 -> "5%", 1 -> "0.0001%". */
    static String percent(int ppm) {
        return BigDecimal.valueOf(ppm).divide(MILLION_PER_PERCENT).stripTrailingZeros().toPlainString() + "%";
    }

    /**
     * The nftables script (for {@code nft -f}) that impairs every port in {@code ports} of the switch namespace:
     * one table, one egress chain per port. Rules that would never fire (rate 0) are left out. Each rule counts
     * the packets it hit and carries the impairment's name as its comment, for {@code nft list table netdev
     * railcoll} and {@link NetnsTestbed#impairmentCounts()}.
     */
    String nftScript(List<String> ports) {
        StringBuilder s = new StringBuilder("table netdev " + NFT_TABLE + " {\n");
        for (String port : ports) {
            s.append("  chain ").append(port).append(" {\n");
            s.append("    type filter hook egress device \"").append(port).append("\" priority 0; policy accept;\n");
            if (duplicatePpm > 0) {
                s.append("    meta protocol ip meta mark != ").append(DUPLICATE_MARK).append(' ').append(draw(duplicatePpm))
                        .append(" counter meta mark set ").append(DUPLICATE_MARK).append(" dup to \"").append(port)
                        .append("\" meta mark set 0 comment \"duplicate\"\n");
                s.append("    meta mark ").append(DUPLICATE_MARK).append(" meta mark set 0\n");
            }
            if (lossPpm > 0) {
                s.append("    meta protocol ip ").append(draw(lossPpm)).append(" counter drop comment \"loss\"\n");
            }
            if (corruptPpm > 0) {
                // Raw payload syntax on purpose: "ip id set" would make nft fix the header checksum.
                s.append("    meta protocol ip ").append(draw(corruptPpm))
                        .append(" counter @nh,32,16 set @nh,32,16 ^ 0x0100 comment \"corrupt\"\n");
            }
            if (reorderPpm > 0) {
                s.append("    meta protocol ip ").append(draw(reorderPpm)).append(" counter meta priority set ").append(LATE_CLASS)
                        .append(" comment \"reorder\"\n");
            }
            s.append("  }\n");
        }
        return s.append("}\n").toString();
    }

    private static String draw(int ppm) {
        return "numgen random mod " + PPM + " < " + ppm;
    }

    @Override
    public String toString() {
        return spec;
    }
}
