package io.railcoll.bench.apps;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An app's {@code key=value} arguments (how {@code bin/railcoll run} and {@code bin/railcoll app} pass options to
 * every rank). Unknown keys and malformed values fail at once, naming the key, so a typo cannot silently run the
 * default.
 */
public final class AppArgs {
    private final String app;
    private final Map<String, String> values = new LinkedHashMap<>();

    private AppArgs(String app) {
        this.app = app;
    }

    public static AppArgs parse(String app, List<String> args, Set<String> known) {
        AppArgs a = new AppArgs(app);
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(app + ": expected key=value, got '" + arg + "'; keys: " + known);
            }
            String key = arg.substring(0, eq);
            if (!known.contains(key)) {
                throw new IllegalArgumentException(app + ": unknown option '" + key + "'; keys: " + known);
            }
            a.values.put(key, arg.substring(eq + 1));
        }
        return a;
    }

    public String string(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public boolean bool(String key, boolean fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        return switch (v.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(app + ": " + key + " must be true or false, got '" + v + "'");
        };
    }

    public long longValue(String key, long fallback, long min) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(app + ": " + key + " must be an integer, got '" + v + "'");
        }
        if (parsed < min) {
            throw new IllegalArgumentException(app + ": " + key + " must be at least " + min + ", got " + parsed);
        }
        return parsed;
    }

    public int intValue(String key, int fallback, int min) {
        long v = longValue(key, fallback, min);
        if (v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(app + ": " + key + " is too large: " + v);
        }
        return (int) v;
    }

    public double doubleValue(String key, double fallback) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v.strip());
            if (!(d > 0) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(app + ": " + key + " must be a positive number, got '" + v + "'");
        }
    }
}
