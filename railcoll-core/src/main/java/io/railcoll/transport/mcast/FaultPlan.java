package io.railcoll.transport.mcast;

import java.util.Locale;

/**
 * What the receive path of a multicast socket does to arriving datagrams, drawn independently per datagram and
 * per receiver (as behind a real switch port), from a seeded generator: drop it ({@code loss}), flip one random
 * bit ({@code corrupt}), deliver it twice ({@code duplicate}), or hold it back until the next one has been
 * delivered ({@code reorder}). This replaces {@code tc netem}, which the kernels this project runs on lack; the
 * netns testbed's {@code --rail-netem} path stays for machines that have it.
 *
 * <p>Parsed from {@code RAILCOLL_MCAST_FAULTS}, e.g. {@code "loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=42"}
 * (each a percentage or a fraction; {@code seed} a long). Immutable.
 */
public record FaultPlan(double loss, double corrupt, double duplicate, double reorder, long seed) {
    public static final FaultPlan NONE = new FaultPlan(0, 0, 0, 0, 0);

    public FaultPlan {
        check("loss", loss);
        check("corrupt", corrupt);
        check("duplicate", duplicate);
        check("reorder", reorder);
    }

    public boolean isNone() {
        return loss == 0 && corrupt == 0 && duplicate == 0 && reorder == 0;
    }

    /** The same plan with another seed (each member of a test draws its own sequence). */
    public FaultPlan withSeed(long newSeed) {
        return new FaultPlan(loss, corrupt, duplicate, reorder, newSeed);
    }

    public static FaultPlan parse(String spec) {
        if (spec == null || spec.isBlank() || spec.strip().equalsIgnoreCase("none")) {
            return NONE;
        }
        double loss = 0;
        double corrupt = 0;
        double duplicate = 0;
        double reorder = 0;
        long seed = 1;
        for (String part : spec.split(",")) {
            String p = part.strip();
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("fault plan entry '" + p + "' is not name=value (in '" + spec + "')");
            }
            String name = p.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = p.substring(eq + 1).strip();
            switch (name) {
                case "loss" -> loss = probability(name, value);
                case "corrupt" -> corrupt = probability(name, value);
                case "duplicate" -> duplicate = probability(name, value);
                case "reorder" -> reorder = probability(name, value);
                case "seed" -> {
                    try {
                        seed = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("fault plan seed must be a whole number, got '" + value + "'");
                    }
                }
                default -> throw new IllegalArgumentException("unknown fault '" + name
                        + "' (known: loss, corrupt, duplicate, reorder, seed)");
            }
        }
        return new FaultPlan(loss, corrupt, duplicate, reorder, seed);
    }

    private static double probability(String name, String value) {
        try {
            return value.endsWith("%") ? Double.parseDouble(value.substring(0, value.length() - 1)) / 100
                    : Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fault '" + name + "' must be a percentage like 5% or a fraction like 0.05, got '"
                    + value + "'");
        }
    }

    private static void check(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("fault '" + name + "' must be between 0% and 100%, got " + p);
        }
    }

    @Override
    public String toString() {
        return isNone() ? "none" : String.format(Locale.ROOT, "loss=%s%%,corrupt=%s%%,duplicate=%s%%,reorder=%s%%,seed=%d",
                pct(loss), pct(corrupt), pct(duplicate), pct(reorder), seed);
    }

    private static String pct(double p) {
        return new java.math.BigDecimal(p * 100).stripTrailingZeros().round(new java.math.MathContext(6)).toPlainString();
    }
}
