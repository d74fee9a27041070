package io.railcoll.sim;

import java.util.Locale;

/**
 * Which ranks share the model's processor cores: every node has {@code cores} of its own ({@link #NODE}, a real
 * cluster), or the whole job shares {@code cores} ({@link #HOST}, an emulated cluster on one machine, where four
 * "nodes" of four ranks each may share two cores).
 */
public enum CpuScope {
    NODE,
    HOST;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CpuScope fromKey(String key) {
        return switch (key.strip().toLowerCase(Locale.ROOT)) {
            case "node" -> NODE;
            case "host" -> HOST;
            default -> throw new IllegalArgumentException("cpu scope must be node or host, got '" + key + "'");
        };
    }
}
