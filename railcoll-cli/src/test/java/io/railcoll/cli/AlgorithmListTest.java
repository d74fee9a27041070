package io.railcoll.cli;

import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AlgorithmListTest {
    private static Shape shape(Collective c, Placement p) {
        return new Shape(c, p, 2, 1, 0);
    }

    @Test
    void shortNamesGetTheCollectivePrefixAndKeywordsPassThrough() {
        Shape s = shape(Collective.ALLGATHER, Placement.uniform(4, 4));
        assertEquals("allgather.smp-direct,all,allgather.ring,auto",
                AlgorithmList.resolve("smp-direct, all,allgather.ring,auto", Collective.ALLGATHER, s));
    }

    @Test
    void unknownNamesAreRefusedWithTheKnownOnes() {
        Shape s = shape(Collective.ALLGATHER, Placement.uniform(4, 4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AlgorithmList.resolve("smp-drect", Collective.ALLGATHER, s));
        assertTrue(e.getMessage().contains("'smp-drect'") && e.getMessage().contains("allgather.smp-direct"), e.getMessage());
    }

    @Test
    void anotherCollectivesAlgorithmIsRefused() {
        Shape s = shape(Collective.GATHER, Placement.uniform(4, 4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AlgorithmList.resolve("allgather.ring", Collective.GATHER, s));
        assertTrue(e.getMessage().contains("unknown gather algorithm"), e.getMessage());
    }
}
