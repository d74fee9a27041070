package io.railcoll.transport.mcast;

import io.railcoll.CollectiveTimeoutException;
import io.railcoll.MismatchException;
import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;
import io.railcoll.transport.mcast.MulticastCounters.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protocol state machine on an in-memory network with a simulated clock and deterministic faults: every
 * broadcast arrives byte for byte, exactly once, whatever is lost, corrupted, duplicated or reordered; fail-over
 * delivers what multicast could not; failures are named.
 */
class BroadcastProtocolTest {
    private static final int[] FOUR = {0, 1, 2, 3};
    private static final int[] SIZES = {0, 1, 7, 1399, 1400, 1401, 4096, 65536, 65537, 300_000, 8, 0, 2800, 33, 100_000,
            16, 17, 1_000_000, 5, 4 << 20, 9};
    private static final FaultPlan FAULTS = FaultPlan.parse("loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=42");

    private static MulticastSettings settings() {
        return MulticastSettings.defaults().withTimeouts(2_000_000L, 50_000_000L, 20_000_000_000L);
    }

    private static void assertEveryoneGotEverythingOnce(Sim sim, int count) {
        for (int i = 0; i < sim.ranks.length; i++) {
            assertEquals(LongStream.range(0, count).boxed().toList(), sim.delivered.get(i),
                    "rank " + sim.ranks[i] + " completed these broadcasts");
        }
    }

    @Test
    void everySizeArrivesByteForByteWithoutFaults() {
        Sim sim = new Sim(FOUR, settings(), FaultPlan.NONE, 1, null);
        sim.run(Sim.script(FOUR, SIZES, 1), 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, SIZES.length);
        assertEquals(0, sim.total(Counter.RETRANSMISSIONS));
        assertEquals(0, sim.total(Counter.FAILOVERS));
        // 21 broadcasts, 3 of them larger than the 64 KiB buffered limit (each ends with a sync), one final flush.
        assertTrue(sim.total(Counter.SYNCS) >= 4 * 4, "syncs: " + sim.total(Counter.SYNCS));
    }

    @ParameterizedTest
    @EnumSource(value = ChecksumKind.class, names = {"CRC32C", "ADDITIVE"})
    void lossCorruptionDuplicationAndReorderingAreRepaired(ChecksumKind kind) {
        Sim sim = new Sim(FOUR, settings().withReliability(true, kind), FAULTS, 1, null);
        sim.run(Sim.script(FOUR, SIZES, 2), 20_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, SIZES.length);
        long injectedCorruptions = 0;
        for (FaultInjectingPort f : sim.faulty) {
            injectedCorruptions += f.corrupted();
        }
        assertTrue(injectedCorruptions > 0);
        // Every injected bit flip is caught (a flip may hit a datagram that was also duplicated or was our own).
        assertTrue(sim.total(Counter.CHECKSUM_FAILURES) > 0, "no checksum failure counted");
        assertTrue(sim.total(Counter.NACKS_SENT) > 0);
        assertTrue(sim.total(Counter.RETRANSMISSIONS) > 0);
        assertTrue(sim.total(Counter.DUPLICATES) > 0);
        assertEquals(0, sim.total(Counter.FAILOVERS), String.join("\n", sim.log));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 16, 64})
    void anyChannelCountPipelinesAndSynchronizes(int channels) {
        int[] sizes = new int[40];
        java.util.Arrays.fill(sizes, 8);
        Sim sim = new Sim(FOUR, settings().withChannels(channels), FAULTS, 1, null);
        sim.run(Sim.script(FOUR, sizes, 3), 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, sizes.length);
        // A synchronization only when the channels run out (and the final flush): ceil(40 / C) per member, plus
        // the join.
        long expected = 4L * (1 + (sizes.length + channels - 1) / channels);
        assertEquals(expected, sim.total(Counter.SYNCS));
    }

    @Test
    void aNonContiguousSubsetWorksBesideAnotherGroupOnTheSameNetwork() {
        int[] ranks = {7, 2, 5};
        Sim sim = new Sim(ranks, settings(), FAULTS, 9, null);
        // Another communicator's members share the same "switch": its datagrams reach ours and must be ignored.
        SimNetwork.Port foreign = sim.net.port();
        List<Sim.Step> script = Sim.script(ranks, new int[] {5, 3000, 0, 70_000, 12}, 4);
        for (int i = 0; i < 50; i++) {
            DatagramHeader h = new DatagramHeader();
            h.jobHash = 77L;
            h.communicatorId = 10;
            h.rootRank = 7;
            h.seq = i % 5;
            h.channel = i % 5;
            java.nio.ByteBuffer d = java.nio.ByteBuffer.allocate(2000);
            new Fragmenter(1400).write(h, MemorySegment.ofArray(new byte[100]), 0, d, new ChecksumKind.Checksummer(ChecksumKind.CRC32C));
            try {
                foreign.send(d);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        sim.run(script, 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, script.size());
    }

    @Test
    void aMemberWithoutMulticastMakesEveryoneFailOverAndNothingIsLostOrDoubled() {
        boolean[] unavailable = {false, false, true, false};
        Sim sim = new Sim(FOUR, settings().withTree(2, 5000), FaultPlan.NONE, 1, unavailable);
        sim.run(Sim.script(FOUR, SIZES, 5), 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, SIZES.length);
        assertEquals(4, sim.total(Counter.FAILOVERS));
        assertTrue(sim.log.getFirst().contains("fails over to the point-to-point 2-nomial tree: rank 2 cannot use multicast: sim: join refused"),
                sim.log.getFirst());
        assertTrue(sim.total(Counter.TREE_MESSAGES_SENT) > 0);
    }

    @Test
    void noRouteToTheGroupFailsOverFromTheSender() {
        Sim sim = new Sim(FOUR, settings(), FaultPlan.NONE, 1, null);
        for (SimNetwork.Port p : sim.ports) {
            p.unreachable = true;
        }
        sim.run(Sim.script(FOUR, SIZES, 6), 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, SIZES.length);
        assertTrue(sim.log.getFirst().contains("cannot send to sim group: Network is unreachable"), sim.log.getFirst());
    }

    @Test
    void multicastThatBreaksMidStreamFailsOverAfterTheRetransmissionCap() {
        Sim sim = new Sim(FOUR, settings().withMaxRetransmissions(5), FAULTS, 1, null);
        sim.net.breakAfterDatagrams = 900;
        sim.run(Sim.script(FOUR, SIZES, 7), 30_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, SIZES.length);
        assertEquals(4, sim.total(Counter.FAILOVERS));
        assertTrue(sim.log.getFirst().contains("5 times and a receiver still lacks it"), sim.log.getFirst());
    }

    @Test
    void receiversAskingAgainWhileASlowRootIsStillOnItsFirstPassIsNoBrokenMulticast() {
        // A root scheduled every 20 ms (an overloaded host: 9 ranks on 2 processors) takes a second to send the first
        // pass of a 4 MiB broadcast, and sends re-sends only after it; receivers that lost 5% see holes and ask
        // again every few ms meanwhile. Those requests wait for re-sends that have not gone out: no evidence that
        // multicast is broken. Counted as such, they made the system test on the testbed fail over (2026-11-26).
        Sim sim = new Sim(FOUR, settings().withMaxRetransmissions(5), FaultPlan.parse("loss=5%,seed=11"), 1, null);
        sim.workEverySteps[0] = 4000;
        sim.run(List.of(new Sim.Step(0, 4 << 20)), 60_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, 1);
        assertEquals(0, sim.total(Counter.FAILOVERS), String.join("\n", sim.log));
        assertTrue(sim.total(Counter.RETRANSMISSIONS) > 0, "nothing was lost, so nothing tested");
    }

    @Test
    void aJoinReportDelayedPastTheSyncTimeoutLetsNobodyStartEarly() {
        // CI (MulticastClusterTest on the nftables rail, 2026-11): rank 1's join REPORT was late (a TCP segment lost on
        // the impaired rail waits for its retransmission time-out), the manager's synchronization time-out fired in the
        // join and sent a RETRANSMIT of [0, 0), and every member that had reported took it as proof of the join's
        // release (its range starts at the join's end). Ranks 1 to 3 then broadcast and synchronized #0..#2 among
        // themselves, and rank 2's REPORT of that reached the manager, still in the join and already holding rank 2's
        // join REPORT: "rank 0 got an unexpected synchronization report from rank 2".
        Sim sim = new Sim(FOUR, settings(), FaultPlan.NONE, 1, null);
        long start = sim.nowNs;
        sim.net.hold(1, 0);
        boolean[] released = {false};
        sim.beforeStep = now -> {
            if (!released[0] && now - start >= 300_000_000L) { // past 6 synchronization time-outs of 50 ms
                released[0] = true;
                // The manager had nothing to re-send in the join, so it sent nothing at all while it waited.
                assertEquals(0, sim.links[0].sent, "control messages from the manager during the join");
                sim.net.release(1, 0);
            }
        };
        // No broadcast of the first epoch comes from the manager, so the others could finish it without it.
        List<Sim.Step> script = List.of(new Sim.Step(2, 8), new Sim.Step(3, 1500), new Sim.Step(1, 100_000), new Sim.Step(0, 8));
        sim.run(script, 10_000_000_000L);
        assertEveryoneGotEverythingOnce(sim, script.size());
    }

    @Test
    void aRetransmitRequestOfTheJoinIsNoProofThatTheJoinWasReleased() {
        // What only a released member can send proves the release: a datagram of broadcast #0 or later, a NACK or
        // REPORT naming it. A RETRANSMIT of [0, 0) names no broadcast (the manager's time-out in the join sent one).
        Sim sim = new Sim(new int[] {0, 1}, settings(), FaultPlan.NONE, 1, null);
        BroadcastProtocol manager = sim.members[0];
        BroadcastProtocol member = sim.members[1];
        member.postJoin(sim.nowNs);
        member.doWork(sim.nowNs); // reports the join to the manager, which has not started yet
        java.nio.ByteBuffer retransmit = java.nio.ByteBuffer.allocate(ControlMessages.REPORT_HEADER);
        ControlMessages.putReportHeader(retransmit, ControlMessages.RETRANSMIT, false, 0, 0, 0, 0);
        sim.net.link(0).send(1, retransmit.flip());
        member.doWork(sim.nowNs);
        assertTrue(!member.isDone(), "the member left the join before the manager released it");
        manager.postJoin(sim.nowNs);
        for (int i = 0; i < 10 && !(manager.isDone() && member.isDone()); i++) {
            manager.doWork(sim.nowNs);
            member.doWork(sim.nowNs);
        }
        assertTrue(manager.isDone() && member.isDone());
        assertEquals(1, sim.counters[1].get(Counter.SYNCS));
    }

    @Test
    void withoutReliabilityALostDatagramEndsInANamedTimeout() {
        MulticastSettings s = settings().withReliability(false, ChecksumKind.NONE).withTimeouts(2_000_000L, 50_000_000L, 100_000_000L);
        Sim clean = new Sim(FOUR, s, FaultPlan.NONE, 1, null);
        clean.run(Sim.script(FOUR, SIZES, 8), 10_000_000_000L);
        assertEveryoneGotEverythingOnce(clean, SIZES.length);
        assertEquals(0, clean.total(Counter.NACKS_SENT));

        Sim lossy = new Sim(FOUR, s, FaultPlan.parse("loss=20%,seed=3"), 1, null);
        CollectiveTimeoutException e = assertThrows(CollectiveTimeoutException.class,
                () -> lossy.run(Sim.script(FOUR, SIZES, 8), 10_000_000_000L));
        assertTrue(e.getMessage().contains("reliability off: lost datagrams are not re-sent"), e.getMessage());
    }

    @Test
    void aSizeMismatchIsNamed() {
        Sim sim = new Sim(new int[] {0, 1}, settings(), FaultPlan.NONE, 1, null);
        sim.members[0].postBroadcast(Sim.payload(0, 0, 100), 0, sim.nowNs);
        MismatchException e = assertThrows(MismatchException.class, () -> {
            sim.members[1].postBroadcast(MemorySegment.ofArray(new byte[99]), 0, sim.nowNs);
            for (int i = 0; i < 100; i++) {
                sim.members[0].doWork(sim.nowNs);
                sim.members[1].doWork(sim.nowNs);
            }
        });
        assertTrue(e.getMessage().contains("size mismatch in multicast broadcast #0: root rank 0 broadcasts 100 bytes, rank 1 posted 99"), e.getMessage());
    }

    @Test
    void aHungMemberMakesTheOthersTimeOutNamingIt() {
        MulticastSettings s = settings().withChannels(2).withTimeouts(2_000_000L, 50_000_000L, 300_000_000L);
        Sim sim = new Sim(FOUR, s, FaultPlan.NONE, 1, null);
        sim.frozen[3] = true;
        sim.failures = new java.util.HashMap<>();
        sim.run(Sim.script(FOUR, new int[] {8, 8, 8, 8}, 9), 10_000_000_000L);
        assertEquals(java.util.Set.of(0, 1, 2), sim.failures.keySet());
        for (RuntimeException e : sim.failures.values()) {
            assertTrue(e instanceof CollectiveTimeoutException && e.getMessage().contains("not done after 300 ms"), e.toString());
        }
        // Member 3 is a child of the manager (rank 0) in the 4-nomial tree: the manager names it.
        String managers = sim.failures.get(0).getMessage();
        assertTrue(managers.contains("no report yet from ranks [3]"), managers);
    }

    @Test
    void aDeadMemberIsNamedByItsPeers() {
        Sim sim = new Sim(FOUR, settings(), FaultPlan.NONE, 1, null);
        sim.frozen[2] = true;
        sim.net.dead.add(2);
        PeerLostException e = assertThrows(PeerLostException.class,
                () -> sim.run(Sim.script(FOUR, new int[] {8, 100_000}, 10), 10_000_000_000L));
        assertEquals(2, e.peerRank());
        assertTrue(e.getMessage().contains("lost rank 2"), e.getMessage());
    }

    @Test
    void programmingErrorsAreThrownBeforeAnythingIsSent() {
        Sim sim = new Sim(FOUR, settings(), FaultPlan.NONE, 1, null);
        assertThrows(IllegalArgumentException.class, () -> sim.members[0].postBroadcast(MemorySegment.ofArray(new byte[1]), 9, 0));
        sim.members[0].postBroadcast(MemorySegment.ofArray(new byte[1]), 1, 0);
        assertThrows(IllegalStateException.class, () -> sim.members[0].postBroadcast(MemorySegment.ofArray(new byte[1]), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new BroadcastProtocol(FOUR, 5, 1, 1, settings(), null, "x",
                sim.net.link(5), new MulticastCounters(), x -> { }));
        assertThrows(IllegalArgumentException.class, () -> new BroadcastProtocol(new int[] {1, 1}, 1, 1, 1, settings(), null, "x",
                sim.net.link(1), new MulticastCounters(), x -> { }));
    }

    @Test
    void afterAFailureEveryCallRethrowsIt() {
        Sim sim = new Sim(new int[] {0, 1}, settings(), FaultPlan.NONE, 1, null);
        sim.net.dead.add(1);
        RailcollException first = assertThrows(RailcollException.class, () -> sim.members[0].doWork(0));
        RailcollException again = assertThrows(RailcollException.class, () -> sim.members[0].postFlush(0));
        assertEquals(first, again);
    }

    @Test
    void manyMembersWithFaultsStillDeliverEverything() {
        int[] ranks = new int[16];
        for (int i = 0; i < 16; i++) {
            ranks[i] = i;
        }
        int[] sizes = {8, 8, 3000, 8, 70_000, 8, 0, 8, 200_000, 8};
        Sim sim = new Sim(ranks, settings(), FAULTS, 3, null);
        sim.run(Sim.script(ranks, sizes, 11), 20_000_000_000L);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < sizes.length; i++) {
            expected.add(i);
        }
        for (int i = 0; i < 16; i++) {
            assertEquals(expected, sim.delivered.get(i));
        }
        assertEquals(0, sim.total(Counter.FAILOVERS), String.join("\n", sim.log));
    }
}
