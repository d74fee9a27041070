package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StriperTest {
    private final int[] lane = new int[8];
    private final long[] offset = new long[8];
    private final long[] length = new long[8];

    @Test
    void largePutIsSplitEvenlyOverLiveLanesOnly() {
        Striper s = new Striper(4, 1024);
        int n = s.plan(0b1011, 3001, lane, offset, length); // lane 2 is dead
        assertEquals(3, n);
        assertEquals(0, lane[0]);
        assertEquals(1, lane[1]);
        assertEquals(3, lane[2]);
        assertEquals(1001, length[0]);
        assertEquals(1001, offset[1]);
        assertEquals(999, length[2]);
        assertEquals(3001, length[0] + length[1] + length[2]);
    }

    @Test
    void smallPutsTakeLiveLanesRoundRobin() {
        Striper s = new Striper(3, 1024);
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            s.plan(0b101, 10, lane, offset, length); // lane 1 is dead
            order.append(lane[0]);
            assertEquals(10, length[0]);
        }
        assertEquals("020202", order.toString());
    }

    @Test
    void noLiveLaneMeansNoFragment() {
        assertEquals(0, new Striper(2, 1024).plan(0, 5000, lane, offset, length));
    }

    @Test
    void aPutAtTheThresholdOrOnOneLaneStaysWhole() {
        Striper s = new Striper(2, 1024);
        assertEquals(1, s.plan(0b11, 1024, lane, offset, length));
        assertEquals(1024, length[0]);
        assertEquals(1, s.plan(0b10, 1 << 20, lane, offset, length));
        assertEquals(1, lane[0]);
    }
}
