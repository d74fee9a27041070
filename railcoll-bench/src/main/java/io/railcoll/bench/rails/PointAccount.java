package io.railcoll.bench.rails;

import java.util.Objects;
import java.util.Optional;

/**
 * The rail accounting of one measured point: what the counters saw (absent where rails are not separable, e.g.
 * loopback), the case's physical limit (absent where the rails have no rate), and the verdict. Immutable.
 */
public record PointAccount(Optional<RailTraffic> traffic, Optional<PhysicalLimit> limit, RailVerdict verdict) {
    public PointAccount {
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(verdict, "verdict");
    }
}
