package io.railcoll;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Persistent point-to-point requests ({@code sendInit}, {@code ssendInit}, {@code recvInit}, decision 0088) between
 * real in-process ranks, over TCP (two nodes) and over shared memory (one node): many rounds of start and wait (and a
 * test loop), the send buffer changed between rounds and every received byte and status checked; a receive from any
 * source (the synchronous sender's tag: a peer's standard sends may run a round ahead); a synchronous persistent send; a persistent send and receive to this
 * rank itself; a receive that truncates, reported every round and startable again; a receive cancelled before any
 * message and started again. And the refusals: starting an active one, starting one that is not persistent; a test or
 * wait of an inactive one returns at once.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PersistentMessageRequestTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));
    private static final int ROUNDS = 60;
    private static final int BYTES = 100;

    @Test
    void roundsOverTcp() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.start(3, CONFIG)) {
            assertEquals(List.of(), run(ranks));
        }
    }

    @Test
    void roundsOverSharedMemory() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(3, CONFIG)) {
            assertEquals(List.of(), run(ranks));
        }
    }

    private static List<String> run(InProcessRanks ranks) throws Exception {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ranks.onEveryRank(c -> {
            try (Arena arena = Arena.ofConfined()) {
                rounds(c, arena, failures);
            }
        });
        return failures;
    }

    private static byte value(int from, int round, int i) {
        return (byte) (from * 37 + round * 11 + i);
    }

    /** Rank r sends to r+1 (standard) and r+2 (synchronous); receives from r-1 specifically and any from r-2. */
    private static void rounds(Communicator c, Arena arena, List<String> failures) {
        int n = c.size();
        int me = c.rank();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        int far = (me + 2) % n;
        int farLeft = (me + n - 2) % n;
        MemorySegment out = arena.allocate(BYTES);
        MemorySegment sOut = arena.allocate(BYTES);
        MemorySegment selfOut = arena.allocate(8);
        MemorySegment in = arena.allocate(BYTES);
        MemorySegment anyIn = arena.allocate(BYTES);
        MemorySegment selfIn = arena.allocate(8);
        MessageRequest send = c.sendInit(out, right, 3);
        MessageRequest ssend = c.ssendInit(sOut, far, 4);
        MessageRequest recv = c.recvInit(in, left, 3);
        MessageRequest any = c.recvInit(anyIn, Communicator.ANY_SOURCE, 4);
        MessageRequest selfRecv = c.recvInit(selfIn, me, 5);
        MessageRequest selfSend = c.sendInit(selfOut, me, 5);
        if (!send.isPersistent() || send.isActive() || !send.test()) {
            failures.add(me + ": a new persistent request is not inactive, or its test does not return true");
        }
        send.await(); // inactive: at once
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < BYTES; i++) {
                out.set(ValueLayout.JAVA_BYTE, i, value(me, round, i));
                sOut.set(ValueLayout.JAVA_BYTE, i, value(me + 100, round, i));
            }
            selfOut.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 1000L * me + round);
            recv.start();
            any.start();
            selfRecv.start();
            selfSend.start();
            send.start();
            ssend.start();
            if (round == 0) {
                try {
                    send.start();
                    failures.add(me + ": starting an active persistent request was not refused");
                } catch (IllegalStateException expected) {
                    // as it must
                }
            }
            if (round % 2 == 0) {
                Request.awaitAll(selfSend, selfRecv, send, ssend, recv, any);
            } else {
                MessageRequest[] all = {selfSend, selfRecv, send, ssend, recv, any};
                for (MessageRequest r : all) {
                    while (!r.test()) {
                        Thread.onSpinWait();
                    }
                }
            }
            for (MessageRequest r : new MessageRequest[] {send, ssend, recv, any, selfSend, selfRecv}) {
                if (r.isActive()) {
                    failures.add(me + " round " + round + ": " + r + " still active after its wait");
                }
                Status st = r.status(); // the accessors that make no Status say what it says, sends' and receives'
                if (r.statusSource() != st.source() || r.statusTag() != st.tag() || r.statusCount() != st.count()) {
                    failures.add(me + " round " + round + ": " + r + " status accessors " + r.statusSource() + ", "
                            + r.statusTag() + ", " + r.statusCount() + " against " + st);
                }
            }
            check(failures, me, round, "recv", in, recv.status(), left, 3, 0);
            check(failures, me, round, "any source", anyIn, any.status(), farLeft, 4, 100);
            long self = selfIn.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            if (self != 1000L * me + round || selfRecv.status().source() != me) {
                failures.add(me + " round " + round + ": to itself got " + self);
            }
        }
        truncationAndCancel(c, arena, failures);
        MessageRequest plain = c.irecv(arena.allocate(1), me, 9);
        try {
            plain.start();
            failures.add(me + ": start() of an irecv's request was not refused");
        } catch (IllegalStateException expected) {
            c.send(arena.allocate(1), me, 9);
            plain.await();
        }
    }

    /** A receive too small for the message truncates every round, and restarts; a cancelled one restarts. */
    private static void truncationAndCancel(Communicator c, Arena arena, List<String> failures) {
        int me = c.rank();
        MemorySegment small = arena.allocate(4);
        MessageRequest r = c.recvInit(small, me, 7);
        MessageRequest s = c.sendInit(arena.allocate(16), me, 7);
        for (int round = 0; round < 3; round++) {
            r.start();
            s.start();
            s.await();
            try {
                r.await();
                failures.add(me + ": a 16-byte message into 4 bytes did not truncate in round " + round);
            } catch (TruncatedMessageException expected) {
                if (r.isActive()) {
                    failures.add(me + ": a truncated round left its request active");
                }
            }
        }
        MessageRequest cancelled = c.recvInit(arena.allocate(8), me, 8);
        cancelled.start();
        if (!cancelled.cancel() || !cancelled.test() || !cancelled.isCancelled()) {
            failures.add(me + ": a persistent receive with no message was not cancelled");
        }
        cancelled.start();
        c.send(arena.allocate(8), me, 8);
        cancelled.await();
        if (cancelled.isCancelled() || cancelled.status().count() != 8) {
            failures.add(me + ": a persistent receive started again after a cancel got " + cancelled.status());
        }
    }

    private static void check(List<String> failures, int me, int round, String what, MemorySegment got, Status st,
                              int from, int tag, int salt) {
        if (st.source() != from || st.tag() != tag || st.count() != BYTES) {
            failures.add(me + " round " + round + " " + what + ": status " + st + ", expected rank " + from + " tag "
                    + tag);
            return;
        }
        for (int i = 0; i < BYTES; i++) {
            if (got.get(ValueLayout.JAVA_BYTE, i) != value(from + salt, round, i)) {
                failures.add(me + " round " + round + " " + what + ": byte " + i + " differs");
                return;
            }
        }
    }
}
