package io.railcoll.settings;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One setting: its name (the environment variable), the type its value is used as, the values it accepts, its
 * default and its documentation. {@link #parse} is the only way a value enters railcoll, whether it comes from the
 * environment, {@code --set KEY=VALUE}, a CLI option or a file: it range-checks in the type the value is used as
 * (a time-out in milliseconds that would overflow its nanoseconds is out of range, not wrapped), and any refusal is
 * a {@link SettingException} naming the setting, the value and what is accepted.
 *
 * <p>Immutable and thread-safe. Definitions live in {@link RailcollSettings}.
 *
 * @param <T> the type the value is used as
 */
public final class Setting<T> {
    private final String name;
    private final T defaultValue;
    private final String accepted;
    private final String doc;
    private final Function<String, T> parser;
    private final Function<T, String> shown;
    /** For numbers: the value as a long in the unit it is used in, and the range in that unit; else null. */
    private final Function<T, Long> used;
    private final long minUsed;
    private final long maxUsed;

    private Setting(String name, T defaultValue, String accepted, String doc, Function<String, T> parser,
                    Function<T, String> shown) {
        this(name, defaultValue, accepted, doc, parser, shown, null, 0, 0);
    }

    private Setting(String name, T defaultValue, String accepted, String doc, Function<String, T> parser,
                    Function<T, String> shown, Function<T, Long> used, long minUsed, long maxUsed) {
        this.name = name;
        this.defaultValue = defaultValue;
        this.accepted = accepted;
        this.doc = doc;
        this.parser = parser;
        this.shown = shown;
        this.used = used;
        this.minUsed = minUsed;
        this.maxUsed = maxUsed;
    }

    /** A whole number in {@code [min, max]}, used as a long; {@code unit} is shown with the range (may be empty). */
    public static Setting<Long> wholeNumber(String name, long min, long max, long dflt, String unit, String doc) {
        return numeric(name, min, max, dflt, unit, false, doc, 1, v -> v, v -> v);
    }

    /** A size in bytes in {@code [min, max]} (k, m and g suffixes accepted), used as a long. */
    public static Setting<Long> bytes(String name, long min, long max, long dflt, String doc) {
        return numeric(name, min, max, dflt, "bytes; k, m, g suffixes", true, doc, 1, v -> v, v -> v);
    }

    /** A whole number in {@code [min, max]}, used as an int ({@code max} at most {@link Integer#MAX_VALUE}). */
    public static Setting<Integer> integer(String name, int min, int max, int dflt, String unit, String doc) {
        return numeric(name, min, max, dflt, unit, false, doc, 1, Math::toIntExact, v -> (long) v);
    }

    /** A size in bytes in {@code [min, max]} (k, m and g suffixes accepted), used as an int. */
    public static Setting<Integer> intBytes(String name, int min, int max, int dflt, String doc) {
        return numeric(name, min, max, dflt, "bytes; k, m, g suffixes", true, doc, 1, Math::toIntExact, v -> (long) v);
    }

    /** A power of two in bytes in {@code [min, max]}, used as an int. */
    public static Setting<Integer> powerOfTwoBytes(String name, int min, int max, int dflt, String doc) {
        String accepted = "a power of two in " + range(min, max) + " (bytes; k, m, g suffixes)";
        Setting<Integer> plain = intBytes(name, min, max, dflt, doc);
        return new Setting<>(name, dflt, accepted, doc, text -> {
            int v;
            try {
                v = plain.parse(text);
            } catch (SettingException e) {
                throw new SettingException(name, text.strip(), problem(e), accepted);
            }
            if (Integer.bitCount(v) != 1) {
                throw new SettingException(name, text.strip(), "is not a power of two", accepted);
            }
            return v;
        }, String::valueOf);
    }

    /**
     * A duration given in milliseconds in {@code [minMs, maxMs]}, used as nanoseconds: the range guarantees the
     * nanoseconds fit a long and that {@code System.nanoTime() + value} cannot overflow.
     */
    public static Setting<Long> millisAsNanos(String name, long minMs, long maxMs, long dfltMs, String doc) {
        return durationAsNanos(name, minMs, maxMs, dfltMs, 1_000_000L, "milliseconds", doc);
    }

    /** A duration given in microseconds in {@code [minUs, maxUs]}, used as nanoseconds. */
    public static Setting<Long> microsAsNanos(String name, long minUs, long maxUs, long dfltUs, String doc) {
        return durationAsNanos(name, minUs, maxUs, dfltUs, 1_000L, "microseconds", doc);
    }

    private static Setting<Long> durationAsNanos(String name, long min, long max, long dflt, long nsPerUnit,
                                                 String unit, String doc) {
        if (Math.multiplyExact(max, nsPerUnit) > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException(name + ": the largest duration must leave room for a deadline");
        }
        return numeric(name, min, max, dflt, unit, false, doc, nsPerUnit, v -> v * nsPerUnit, ns -> ns / nsPerUnit);
    }

    /** {@code on} or {@code off} (also true/false, yes/no, 1/0). */
    public static Setting<Boolean> onOff(String name, boolean dflt, String doc) {
        String accepted = "on, off";
        return new Setting<>(name, dflt, accepted, doc, text -> switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new SettingException(name, text.strip(), "is not on or off", accepted);
        }, v -> v ? "on" : "off");
    }

    /**
     * One of {@code values} (case-insensitive), returned as written in {@code values}; {@code aliases} maps
     * further spellings to one of them.
     */
    public static Setting<String> choice(String name, String dflt, String doc, List<String> values,
                                         Map<String, String> aliases) {
        String accepted = String.join(", ", values);
        return new Setting<>(name, dflt, accepted, doc, text -> {
            String t = text.strip().toLowerCase(Locale.ROOT);
            for (String v : values) {
                if (v.equalsIgnoreCase(t)) {
                    return v;
                }
            }
            String alias = aliases.get(t);
            if (alias != null) {
                return alias;
            }
            throw new SettingException(name, text.strip(), "is not one of the accepted values", accepted);
        }, v -> v);
    }

    /** Free text, checked by whoever uses it (a path, an address list); {@code dflt} may be empty. */
    public static Setting<String> text(String name, String dflt, String accepted, String doc) {
        return new Setting<>(name, dflt, accepted, doc, String::strip, v -> v);
    }

    private static <T> Setting<T> numeric(String name, long min, long max, long dflt, String unit, boolean units,
                                          String doc, long scale, Function<Long, T> toValue, Function<T, Long> fromValue) {
        if (min > max || dflt < min || dflt > max) {
            throw new IllegalArgumentException(name + ": default " + dflt + " outside " + range(min, max));
        }
        String accepted = range(min, max) + (unit.isEmpty() ? "" : " (" + unit + ")");
        return new Setting<>(name, toValue.apply(dflt), accepted, doc, text -> {
            String t = text.strip();
            return switch (Numbers.parse(t, units)) {
                case Numbers.Value(long v) when v >= min && v <= max -> toValue.apply(v);
                case Numbers.Value v -> throw new SettingException(name, t, "is out of range", accepted);
                case Numbers.TooLarge x -> throw new SettingException(name, t, "is out of range", accepted);
                case Numbers.TooSmall x -> throw new SettingException(name, t, "is out of range", accepted);
                case Numbers.NotANumber x -> throw new SettingException(name, t, "is not a whole number", accepted);
            };
        }, v -> Long.toString(fromValue.apply(v)), v -> ((Number) v).longValue(), min * scale, max * scale);
    }

    private static String range(long min, long max) {
        return min + ".." + max;
    }

    private static String problem(SettingException e) {
        String m = e.getMessage();
        int start = m.indexOf(' ');
        int end = m.lastIndexOf("; accepted: ");
        return start < 0 || end < start ? "is refused" : m.substring(start + 1, end);
    }

    /** Parses {@code text}; a refusal names this setting, the value and the accepted values. */
    public T parse(String text) {
        if (text == null) {
            throw new SettingException(name, "", "has no value", accepted);
        }
        return parser.apply(text);
    }

    /** The value in {@code env}, or the default when the setting is absent or blank there. */
    public T read(Map<String, String> env) {
        String v = env.get(name);
        return v == null || v.isBlank() ? defaultValue : parse(v);
    }

    /** Whether {@code env} gives this setting a (non-blank) value. */
    public boolean isSetIn(Map<String, String> env) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }

    /**
     * Checks a value built in code (a {@code Config} made by a program) against the same range: a number, in the
     * unit {@link #parse} returns, that {@code parse} would refuse is refused the same way.
     */
    public T check(T value) {
        if (value == null) {
            throw new SettingException(name, "null", "has no value", accepted);
        }
        if (used != null) {
            long v = used.apply(value);
            if (v < minUsed || v > maxUsed) {
                throw new SettingException(name, shown.apply(value), "is out of range", accepted);
            }
        } else {
            parse(shown.apply(value));
        }
        return value;
    }

    /** The value as a user would write it (milliseconds for a time-out kept in nanoseconds). */
    public String show(T value) {
        return shown.apply(value);
    }

    public String name() {
        return name;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** What the setting accepts, as shown in errors, e.g. {@code 1..31536000000 (milliseconds)}. */
    public String accepted() {
        return accepted;
    }

    public String doc() {
        return doc;
    }

    @Override
    public String toString() {
        return name + " (" + accepted + ", default " + show(defaultValue) + ")";
    }
}
