package io.railcoll.select;

import io.railcoll.settings.Numbers;

import java.util.Locale;

/**
 * An inclusive range of whole numbers, as written in tuning-file rules: {@code 4}, {@code 1..64k}, {@code 4k..}
 * (no upper bound), {@code ..256} (from 0) or {@code *} (anything). Sizes take the binary suffixes k, m and g
 * (1k = 1024). Immutable.
 */
public record Range(long min, long max) {
    public static final Range ANY = new Range(0, Long.MAX_VALUE);

    public Range {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("a range needs 0 <= min <= max, got " + min + ".." + max);
        }
    }

    public static Range exactly(long value) {
        return new Range(value, value);
    }

    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    public boolean isAny() {
        return min == 0 && max == Long.MAX_VALUE;
    }

    /** Parses the forms above; throws {@link IllegalArgumentException} saying what was expected. */
    public static Range parse(String text) {
        String s = text.strip();
        if (s.equals("*")) {
            return ANY;
        }
        int dots = s.indexOf("..");
        if (dots < 0) {
            return exactly(number(s, text));
        }
        String low = s.substring(0, dots).strip();
        String high = s.substring(dots + 2).strip();
        return new Range(low.isEmpty() ? 0 : number(low, text), high.isEmpty() ? Long.MAX_VALUE : number(high, text));
    }

    private static long number(String s, String whole) {
        // The settings' own number reader: exact, units k/m/g, and nothing beyond a long wraps.
        if (Numbers.parse(s, true) instanceof Numbers.Value(long v) && v >= 0) {
            return v;
        }
        throw new IllegalArgumentException("bad range '" + whole + "': expected N, A..B, A.., ..B or *, where a number"
                + " is 0.." + Long.MAX_VALUE + " and may end in k, m or g");
    }

    /** The form {@link #parse} reads, with sizes in the largest exact binary unit: {@code 1..64k}, {@code 4k..}. */
    @Override
    public String toString() {
        if (isAny()) {
            return "*";
        }
        if (min == max) {
            return withUnit(min);
        }
        return (min == 0 ? "" : withUnit(min)) + ".." + (max == Long.MAX_VALUE ? "" : withUnit(max));
    }

    private static String withUnit(long v) {
        if (v != 0 && v % (1L << 30) == 0) {
            return v / (1L << 30) + "g";
        }
        if (v != 0 && v % (1L << 20) == 0) {
            return v / (1L << 20) + "m";
        }
        if (v != 0 && v % (1L << 10) == 0) {
            return v / (1L << 10) + "k";
        }
        return Long.toString(v);
    }
}
