package io.railcoll.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rounds of the loops behind the figure added to a barrier loop: peer_bench.c splits the calls the same way. */
class BenchAppRoundsTest {

    @Test
    void roundsSplitTheCallsEvenlyAndMakeThemAll() {
        for (int iterations = 1; iterations <= 1000; iterations++) {
            int sum = 0;
            int least = Integer.MAX_VALUE;
            int most = 0;
            for (int round = 0; round < BenchApp.ADDED_ROUNDS; round++) {
                int calls = BenchApp.roundCalls(iterations, round);
                sum += calls;
                least = Math.min(least, calls);
                most = Math.max(most, calls);
            }
            assertEquals(iterations, sum, "iterations " + iterations);
            assertTrue(most - least <= 1, "iterations " + iterations + ": " + least + ".." + most);
        }
        assertEquals(250, BenchApp.roundCalls(1000, 3));
        assertEquals(0, BenchApp.roundCalls(1, 0));
        assertEquals(1, BenchApp.roundCalls(1, 3));
    }
}
