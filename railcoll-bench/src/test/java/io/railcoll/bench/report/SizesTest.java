package io.railcoll.bench.report;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SizesTest {

    @Test
    void exactBinaryUnitsOnly() {
        assertEquals("0B", Sizes.label(0));
        assertEquals("1B", Sizes.label(1));
        assertEquals("1000B", Sizes.label(1000));
        assertEquals("1K", Sizes.label(1024));
        assertEquals("3K", Sizes.label(3072));
        assertEquals("65537B", Sizes.label(65537));
        assertEquals("1M", Sizes.label(1 << 20));
        assertEquals("4G", Sizes.label(4L << 30));
    }

    @Test
    void seriesFromPlacement() {
        Series uneven = Series.of(Collective.GATHER, "gather.linear", Placement.parse("3,4,2"), 2, "tcp");
        assertEquals(3, uneven.nodes());
        assertEquals("3,4,2", uneven.ranksPerNode());
        assertEquals(9, uneven.ranks());
        assertEquals("3 nodes (3,4,2 ranks)", uneven.placementLabel());
        Series uniform = Series.of(Collective.GATHER, "gather.linear", Placement.uniform(4, 4), 2, "tcp");
        assertEquals("4", uniform.ranksPerNode());
        assertEquals(16, uniform.ranks());
        assertEquals("4 nodes x 4 ranks", uniform.placementLabel());
        assertThrows(IllegalArgumentException.class, () -> new Series(Collective.GATHER, "g", 2, "3,4,2", 1, "tcp"));
        assertThrows(IllegalArgumentException.class, () -> new Series(Collective.GATHER, "g", 2, "four", 1, "tcp"));
    }
}
