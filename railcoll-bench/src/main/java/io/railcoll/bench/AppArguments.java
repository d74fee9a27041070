package io.railcoll.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code key=value} arguments of a measuring {@code RankApp} ({@link CallCostApp}, {@link LatencyBreakdownApp}):
 * each key at most once, from a fixed set, else an error naming what is accepted. Stateless after parsing.
 */
final class AppArguments {
    private final Map<String, String> values = new HashMap<>();

    private AppArguments() {
    }

    /** Parses {@code args}; {@code keys} are the accepted keys, in the order an error lists them. */
    static AppArguments parse(List<String> args, String... keys) {
        Set<String> accepted = Set.of(keys);
        AppArguments a = new AppArguments();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got " + arg);
            }
            String key = arg.substring(0, eq);
            if (!accepted.contains(key)) {
                throw new IllegalArgumentException("unknown option " + key + " (" + String.join(", ", keys) + ")");
            }
            a.values.put(key, arg.substring(eq + 1));
        }
        return a;
    }

    String string(String key, String otherwise) {
        return values.getOrDefault(key, otherwise);
    }

    int integer(String key, int otherwise) {
        String v = values.get(key);
        return v == null ? otherwise : Integer.parseInt(v);
    }

    long number(String key, long otherwise) {
        String v = values.get(key);
        return v == null ? otherwise : Long.parseLong(v);
    }
}
