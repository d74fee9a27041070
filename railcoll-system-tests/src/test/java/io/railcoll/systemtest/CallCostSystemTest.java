package io.railcoll.systemtest;

import io.railcoll.bench.CallCostApp;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CallCostApp} on a real job: one line per round from rank 0, naming what ran, with the call's time, the
 * period, and the machine's processor time and context switches per call, all of them plausible.
 */
class CallCostSystemTest {
    private static final Pattern LINE = Pattern.compile("CALLCOST allgather allgather\\.direct 4096 round=(\\d) "
            + "call_us=([0-9.]+) period_us=([0-9.]+) cpu_ms_per_call=([0-9.]+) busy=([0-9.]+) ctxt_per_call=([0-9.]+)");

    @Test
    void printsOneLinePerRoundWithTheProcessorTimeOfACall() {
        Jobs.Outcome o = Jobs.run(Placement.parse("2x2"), 2, CallCostApp.class,
                List.of("collective=allgather", "algorithm=allgather.direct", "size=4096", "calls=200", "rounds=2",
                        "warmup=50"), Map.of()).assertSucceeded();
        Matcher m = LINE.matcher(o.stdout());
        int rounds = 0;
        while (m.find()) {
            rounds++;
            assertEquals(rounds, Integer.parseInt(m.group(1)), o.stdout());
            double call = Double.parseDouble(m.group(2));
            double period = Double.parseDouble(m.group(3));
            double busy = Double.parseDouble(m.group(5));
            // A call is part of its period (the barrier before it is the rest), and busy is a share.
            assertTrue(call > 0 && call <= period, o.stdout());
            assertTrue(busy > 0 && busy <= 1, o.stdout());
            assertTrue(Double.parseDouble(m.group(4)) >= 0 && Double.parseDouble(m.group(6)) >= 0, o.stdout());
        }
        assertEquals(2, rounds, o.stdout());
    }
}
