package io.railcoll.cli;

import io.railcoll.settings.Numbers;
import io.railcoll.settings.RailcollSettings;
import io.railcoll.settings.Setting;
import io.railcoll.settings.SettingException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.util.ArrayList;
import java.util.List;

/**
 * Converters that check CLI option values while the command line is parsed, so bad input is refused with one line
 * naming the option and the accepted values (exit code 2) before any JVM starts. Options that set a railcoll setting
 * go through that setting's own definition ({@link RailcollSettings}), so the CLI and the environment accept
 * exactly the same values.
 */
final class OptionValues {
    private OptionValues() {
    }

    /** A converter that parses through {@code setting} and gives the text back (the option's field stays text). */
    abstract static class SettingText<T> implements ITypeConverter<String> {
        abstract Setting<T> setting();

        @Override
        public String convert(String value) {
            try {
                return setting().show(setting().parse(value));
            } catch (SettingException e) {
                throw new TypeConversionException(problem(e));
            }
        }
    }

    static final class Engine extends SettingText<String> {
        @Override
        Setting<String> setting() {
            return RailcollSettings.ENGINE;
        }
    }

    static final class TimeoutMs extends SettingText<Long> {
        @Override
        Setting<Long> setting() {
            return RailcollSettings.TIMEOUT;
        }
    }

    static final class Deterministic extends SettingText<Boolean> {
        @Override
        Setting<Boolean> setting() {
            return RailcollSettings.DETERMINISTIC;
        }
    }

    static final class StripeThreshold extends SettingText<Long> {
        @Override
        Setting<Long> setting() {
            return RailcollSettings.STRIPE_THRESHOLD;
        }
    }

    /** A count of at least one (samples, iterations, repeats): 0 would measure nothing and print an empty table. */
    static final class AtLeastOne implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return number(value, 1, Integer.MAX_VALUE).intValue();
        }
    }

    /** A count that may be zero (warm-up calls). */
    static final class NotNegative implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return number(value, 0, Integer.MAX_VALUE).intValue();
        }
    }

    /** A duration or size of at least one (ms, bytes). */
    static final class PositiveLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return number(value, 1, Long.MAX_VALUE);
        }
    }

    /** A sample count of at least one, or {@code auto}; kept as text, checked here. */
    static final class SamplesOrAuto implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.strip().equals("auto")) {
                return "auto";
            }
            try {
                return String.valueOf(number(value, 1, Integer.MAX_VALUE));
            } catch (TypeConversionException e) {
                throw new TypeConversionException(e.getMessage() + " or auto");
            }
        }
    }

    /** A duration that may be zero. */
    static final class NotNegativeLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return number(value, 0, Long.MAX_VALUE);
        }
    }

    /** A comma-separated list of sizes in bytes with optional k/m/g; kept as text, checked here. */
    static final class Sizes implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            sizes(value);
            return value;
        }
    }

    /** One size in bytes with optional k/m/g, 0 included. */
    static final class OneSize implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            if (value.contains(",")) {
                throw new TypeConversionException("'" + value.strip() + "' is a list; accepted: one size in bytes, "
                        + "optionally ending in k, m or g (e.g. 8k)");
            }
            return sizes(value).getFirst();
        }
    }

    /** The sizes of a {@code --sizes} list; a bad entry is a {@link TypeConversionException} naming it. */
    static List<Long> sizes(String spec) {
        List<Long> out = new ArrayList<>();
        for (String s : spec.split(",", -1)) {
            if (!(Numbers.parse(s, true) instanceof Numbers.Value(long v)) || v < 0) {
                throw new TypeConversionException("'" + s.strip() + "' is not a size; accepted: comma-separated whole "
                        + "numbers of bytes 0.." + Long.MAX_VALUE + ", each optionally ending in k, m or g (e.g. 1,4k,1m)");
            }
            out.add(v);
        }
        return out;
    }

    private static Long number(String value, long min, long max) {
        Numbers.Parsed parsed = Numbers.parse(value, false);
        if (parsed instanceof Numbers.Value(long v) && v >= min && v <= max) {
            return v;
        }
        throw new TypeConversionException("'" + value.strip() + "' is " + (parsed instanceof Numbers.NotANumber
                ? "not a whole number" : "out of range") + "; accepted: " + min + ".." + max);
    }

    /** "'turbo' is not one of the accepted values; accepted: single, threaded" from a setting's refusal. */
    private static String problem(SettingException e) {
        String m = e.getMessage();
        String prefix = e.setting() + "=" + e.value() + " ";
        return "'" + e.value() + "' " + (m.startsWith(prefix) ? m.substring(prefix.length()) : m);
    }
}
