package io.railcoll.bench.peer;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeerRunTest {
    private static final List<Long> SIZES = List.of(1L, 1024L, 65536L);

    private static PeerRun.Builder builder() {
        return PeerRun.builder(Collective.ALLGATHER, Placement.uniform(2, 2), SIZES);
    }

    /** OSU's counts and the rest of what {@link PeerRun#of} has always given. */
    @Test
    void theDefaultsAreOsusCounts() {
        PeerRun run = PeerRun.of(Collective.ALLGATHER, Placement.uniform(2, 2), SIZES);
        assertEquals(new PeerRun(Collective.ALLGATHER, Placement.uniform(2, 2), 1, PeerRun.ONE_HOST_ENGINE, SIZES,
                200, 1000, 10, 100, 8192, 5, false, 0, Duration.ofMinutes(10), List.of(), List.of(), 0), run);
        assertEquals(run, builder().build());
    }

    /** Every setter changes its own components and no other, whichever run it starts from. */
    @Test
    void eachSetterChangesItsOwnComponentsOnly() throws ReflectiveOperationException {
        Map<String, UnaryOperator<PeerRun.Builder>> setters = Map.ofEntries(
                Map.entry("rails", b -> b.rails(3)),
                Map.entry("engineLabel extraMpirunArgs", b -> b.mpirunArgs(List.of("--mca", "plm", "rsh"), "netns")),
                Map.entry("warmup iterations largeWarmup largeIterations", b -> b.counts(7, 70, 3, 30)),
                Map.entry("largeFromBytes", b -> b.largeFromBytes(65536)),
                Map.entry("samples", b -> b.samples(9)),
                Map.entry("check", b -> b.check(true)),
                Map.entry("budgetMicros", b -> b.budgetPerSample(Duration.ofMillis(100))),
                Map.entry("timeout", b -> b.timeout(Duration.ofSeconds(30))),
                Map.entry("railInterfaces", b -> b.railInterfaces(List.of("rail0", "rail1"))),
                Map.entry("addedBelowBytes", b -> b.addedToBarrierBelowBytes(8192)));
        PeerRun defaults = builder().build();
        for (PeerRun base : List.of(defaults, everyComponentSet())) {
            for (var entry : setters.entrySet()) {
                List<String> own = List.of(entry.getKey().split(" "));
                PeerRun fromDefaults = entry.getValue().apply(builder()).build();
                PeerRun fromBase = entry.getValue().apply(base.toBuilder()).build();
                for (RecordComponent c : PeerRun.class.getRecordComponents()) {
                    Object expected = c.getAccessor().invoke(own.contains(c.getName()) ? fromDefaults : base);
                    assertEquals(expected, c.getAccessor().invoke(fromBase), entry.getKey() + ": " + c.getName());
                }
            }
        }
        // And each setter's values are not the defaults, so the check above sees them move.
        for (var entry : setters.entrySet()) {
            PeerRun changed = entry.getValue().apply(builder()).build();
            List<String> differ = new ArrayList<>();
            for (RecordComponent c : PeerRun.class.getRecordComponents()) {
                if (!c.getAccessor().invoke(changed).equals(c.getAccessor().invoke(defaults))) {
                    differ.add(c.getName());
                }
            }
            assertEquals(List.of(entry.getKey().split(" ")), differ);
        }
    }

    /** A run whose every setting differs from the defaults and from the values the test above sets (but check). */
    private static PeerRun everyComponentSet() {
        return builder().rails(2).mpirunArgs(List.of("--mca", "btl", "tcp"), "netns-2").counts(1, 2, 3, 4)
                .largeFromBytes(4096).samples(7).check(true).budgetPerSample(Duration.ofMillis(5))
                .timeout(Duration.ofSeconds(9)).railInterfaces(List.of("rail0")).addedToBarrierBelowBytes(4096).build();
    }

    /** toBuilder keeps every component: a run derived with no change is the same run. */
    @Test
    void aRunRebuiltUnchangedIsEqual() {
        PeerRun run = everyComponentSet();
        assertEquals(run, run.toBuilder().build());
        assertEquals(builder().build(), builder().build().toBuilder().build());
    }

    @Test
    void aBudgetIsKeptInWholeMicroseconds() {
        assertEquals(100_000, builder().budgetPerSample(Duration.ofMillis(100)).build().budgetMicros());
        assertEquals(1, builder().budgetPerSample(Duration.ofNanos(1999)).build().budgetMicros());
        assertEquals(0, builder().budgetPerSample(Duration.ofNanos(999)).build().budgetMicros(), "0: the fixed counts");
    }

    /** The builder checks nothing itself; build checks everything, as the record always has. */
    @Test
    void buildRefusesWhatTheRecordRefuses() {
        for (UnaryOperator<PeerRun.Builder> bad : List.<UnaryOperator<PeerRun.Builder>>of(
                b -> b.counts(-1, 10, 1, 10), b -> b.counts(1, 0, 1, 10), b -> b.counts(1, 10, -1, 10),
                b -> b.counts(1, 10, 1, 0), b -> b.samples(0), b -> b.rails(-1), b -> b.largeFromBytes(-1),
                b -> b.budgetPerSample(Duration.ofMillis(-1)), b -> b.addedToBarrierBelowBytes(-1),
                b -> b.timeout(Duration.ZERO))) {
            PeerRun.Builder builder = bad.apply(builder());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
            assertTrue(e.getMessage().startsWith("need ") || e.getMessage().startsWith("timeout"), e.getMessage());
        }
        assertThrows(NullPointerException.class, () -> builder().timeout(null).build());
        assertThrows(NullPointerException.class, () -> builder().mpirunArgs(List.of(), null).build());
        assertThrows(IllegalArgumentException.class,
                () -> PeerRun.builder(Collective.ALLGATHER, Placement.singleNode(4), List.of()).build());
    }
}
