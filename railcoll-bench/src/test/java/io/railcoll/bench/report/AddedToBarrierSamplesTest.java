package io.railcoll.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AddedToBarrierSamplesTest {

    @Test
    void medianMinAndMaxKeepNegativeValuesExactly() {
        AddedToBarrierSamples s = new AddedToBarrierSamples().addNs(240).addNs(-35).addNs(1_234_567).addNs(262);
        assertEquals(4, s.count());
        // Sorted: -35, 240, 262, 1234567; an even count takes the lower middle, as Samples does.
        assertEquals(new AddedToBarrier(0.240, -0.035, 1234.567), s.summary());
    }

    @Test
    void oddCountTakesTheMiddleAndMicrosecondsRoundToTheNanosecond() {
        AddedToBarrierSamples s = new AddedToBarrierSamples().addUs(0.3004).addUs(-0.1).addUs(0.2);
        assertEquals(new AddedToBarrier(0.2, -0.1, 0.3), s.summary());
    }

    @Test
    void growsPastItsFirstArray() {
        AddedToBarrierSamples s = new AddedToBarrierSamples();
        for (int i = 60; i > 0; i--) {
            s.addNs(i * 1_000L);
        }
        assertEquals(new AddedToBarrier(30.0, 1.0, 60.0), s.summary());
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalStateException.class, () -> new AddedToBarrierSamples().summary());
        assertThrows(IllegalArgumentException.class, () -> new AddedToBarrierSamples().addUs(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new AddedToBarrier(1.0, 2.0, 3.0));
    }
}
