package io.railcoll.bench.peer;

import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MpirunCommandTest {
    static final Path MPIRUN = Path.of("/usr/bin/mpirun");
    static final Path PROGRAM = Path.of("/cache/peer_bench-abc");

    @Test
    void yieldsWhenRanksOutnumberCores() {
        PeerRun run = PeerRun.builder(Collective.ALLGATHER, Placement.uniform(4, 4), List.of(1L, 1024L))
                .counts(20, 100, 2, 10).samples(3).check(true).build();
        assertEquals(List.of("/usr/bin/mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "16",
                "--mca", "mpi_yield_when_idle", "1", "--mca", "plm", "isolated",
                "/cache/peer_bench-abc", "--collective", "allgather", "--sizes", "1,1024",
                "--warmup", "20", "--iterations", "100", "--large-warmup", "2", "--large-iterations", "10",
                "--large-from", "8192", "--samples", "3", "--check"), MpirunCommand.build(MPIRUN, PROGRAM, run, 2));
    }

    @Test
    void spinsWhenEveryRankHasACoreAndPassesExtraArgs() {
        PeerRun run = PeerRun.builder(Collective.BROADCAST, Placement.singleNode(2), List.of(8L))
                .mpirunArgs(List.of("--mca", "btl", "self,vader"), "one-host vader").build();
        List<String> cmd = MpirunCommand.build(MPIRUN, PROGRAM, run, 2);
        assertEquals(List.of("/usr/bin/mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2",
                "--mca", "plm", "isolated", "--mca", "btl", "self,vader", "/cache/peer_bench-abc", "--collective", "bcast",
                "--sizes", "8"), cmd.subList(0, 16));
    }

    /** Extra arguments that choose a launcher (an agent for other hosts) keep it: no isolated launcher beside them. */
    @Test
    void aLauncherInTheExtraArgsReplacesTheIsolatedOne() {
        for (List<String> launcher : List.of(List.of("--mca", "plm", "rsh"), List.of("--mca", "plm_rsh_agent", "/tmp/agent"))) {
            PeerRun run = PeerRun.builder(Collective.BROADCAST, Placement.uniform(2, 1), List.of(8L))
                    .mpirunArgs(launcher, "agent").build();
            List<String> cmd = MpirunCommand.build(MPIRUN, PROGRAM, run, 2);
            assertFalse(cmd.contains("isolated"), cmd.toString());
            assertEquals(launcher, cmd.subList(5, 8));
        }
    }

    @Test
    void aBudgetIsPassedInMicroseconds() {
        PeerRun run = PeerRun.builder(Collective.GATHER, Placement.singleNode(4), List.of(1L))
                .budgetPerSample(Duration.ofMillis(100)).build();
        List<String> args = run.programArgs();
        assertEquals(List.of("--budget-us", "100000"), args.subList(args.size() - 2, args.size()));
        assertFalse(PeerRun.of(Collective.GATHER, Placement.singleNode(4), List.of(1L)).programArgs().contains("--budget-us"));
    }

    /** Decision 0232: the cap below which the figure added to a barrier loop is measured; none by default. */
    @Test
    void theAddedFigureIsAskedForBelowItsCap() {
        PeerRun run = PeerRun.builder(Collective.GATHER, Placement.singleNode(4), List.of(1L))
                .addedToBarrierBelowBytes(8192).build();
        List<String> args = run.programArgs();
        assertEquals(List.of("--added-below", "8192"), args.subList(args.size() - 2, args.size()));
        assertFalse(PeerRun.of(Collective.GATHER, Placement.singleNode(4), List.of(1L)).programArgs().contains("--added-below"));
    }

    @Test
    void barrierTakesNoSizes() {
        PeerRun run = PeerRun.of(Collective.BARRIER, Placement.singleNode(2), List.of());
        assertEquals(List.of("--collective", "barrier", "--warmup"), run.programArgs().subList(0, 3));
    }

    @Test
    void rejectsWhatMpiCannotCount() {
        assertThrows(IllegalArgumentException.class,
                () -> PeerRun.of(Collective.ALLGATHER, Placement.singleNode(4), List.of(1L << 30)));
        assertThrows(IllegalArgumentException.class,
                () -> PeerRun.of(Collective.ALLGATHER, Placement.singleNode(4), List.of()));
    }
}
