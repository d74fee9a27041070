package io.railcoll.settings;

import java.math.BigInteger;
import java.util.Locale;

/**
 * The one reading of whole numbers for every setting and every tuning-file range: decimal digits, optionally signed,
 * and for sizes a binary unit suffix k, m or g. A number that does not fit a {@code long} is reported as out of
 * range (never wrapped, never truncated), so a range check can name the accepted range.
 */
public final class Numbers {
    /** Above every range a setting accepts; returned for numbers too large for a long so range checks refuse them. */
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    private Numbers() {
    }

    /** What {@link #parse} found: a value, or that the text is not a number, or a number outside a long. */
    public sealed interface Parsed permits Value, NotANumber, TooLarge, TooSmall {
    }

    public record Value(long value) implements Parsed {
    }

    public record NotANumber() implements Parsed {
    }

    public record TooLarge() implements Parsed {
    }

    public record TooSmall() implements Parsed {
    }

    /**
     * Reads {@code text} as a whole number; with {@code units} a suffix k, m or g (case-insensitive) multiplies by
     * 2^10, 2^20 or 2^30.
     */
    public static Parsed parse(String text, boolean units) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int shift = 0;
        if (units && !t.isEmpty()) {
            char last = t.charAt(t.length() - 1);
            shift = switch (last) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            if (shift > 0) {
                t = t.substring(0, t.length() - 1);
            }
        }
        if (!t.matches("[+-]?[0-9]+")) {
            return new NotANumber();
        }
        BigInteger v = new BigInteger(t).shiftLeft(shift);
        if (v.compareTo(LONG_MAX) > 0) {
            return new TooLarge();
        }
        if (v.compareTo(LONG_MIN) < 0) {
            return new TooSmall();
        }
        return new Value(v.longValue());
    }
}
