package io.railcoll.transport.mcast;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ControlMuxTest {
    private static ByteBuffer msg(String s) {
        return ByteBuffer.wrap(s.getBytes());
    }

    private static List<String> drain(ControlLink l) {
        List<String> got = new ArrayList<>();
        l.poll((from, m) -> {
            byte[] b = new byte[m.remaining()];
            m.get(b);
            got.add(from + ":" + new String(b));
        });
        return got;
    }

    @Test
    void eachChannelSeesOnlyItsOwnMessagesInOrderEvenBeforeItOpens() {
        SimNetwork net = new SimNetwork();
        ControlMux a = new ControlMux(net.link(0));
        ControlMux b = new ControlMux(net.link(1));
        ControlMux.Channel a1 = a.channel(1);
        ControlMux.Channel a2 = a.channel(2);
        ControlMux.Channel b1 = b.channel(1);
        a1.send(1, msg("one"));
        a2.send(1, msg("two-early"));
        a1.send(1, msg("three"));
        assertEquals(List.of("0:one", "0:three"), drain(b1));
        ControlMux.Channel b2 = b.channel(2);
        assertEquals(List.of("0:two-early"), drain(b2));
        b1.close();
        a1.send(1, msg("late"));
        assertEquals(List.of(), drain(b2));
        assertThrows(IllegalStateException.class, () -> b.channel(1));
    }

    /**
     * Members leave one group's final synchronization at different times and open the next group at once, while
     * others still finish the previous one, all over one link per member; every member keeps driving its finished
     * instances too, as an engine's progress loop does.
     */
    private static void groupsInARow(boolean mux) {
        int[] ranks = {0, 1, 2, 3};
        int groups = 4;
        SimNetwork net = new SimNetwork();
        ControlLink[] links = new ControlLink[4];
        ControlMux[] muxes = new ControlMux[4];
        for (int i = 0; i < 4; i++) {
            links[i] = net.link(i);
            muxes[i] = new ControlMux(links[i]);
        }
        BroadcastProtocol[] p = new BroadcastProtocol[4];
        ControlMux.Channel[] ch = new ControlMux.Channel[4];
        int[] group = new int[4];
        int[] step = new int[4];
        java.util.Arrays.fill(group, -1);
        List<List<BroadcastProtocol>> past = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            past.add(new ArrayList<>());
        }
        int finished = 0;
        for (int round = 0; finished < 4; round++) {
            if (round > 100_000) {
                throw new AssertionError("no progress: a control message went to the wrong instance");
            }
            for (int i = 0; i < 4; i++) {
                for (BroadcastProtocol old : past.get(i)) {
                    old.doWork(0);
                }
                if (group[i] >= groups) {
                    continue;
                }
                if (group[i] < 0 || (p[i].isDone() && step[i] == 4)) {
                    if (ch[i] != null) {
                        ch[i].close();
                        past.get(i).add(p[i]);
                    }
                    if (++group[i] == groups) {
                        finished++;
                        continue;
                    }
                    ch[i] = muxes[i].channel(group[i]);
                    p[i] = new BroadcastProtocol(ranks, i, 5, group[i], MulticastSettings.defaults(), net.port(), null,
                            mux ? ch[i] : links[i], new MulticastCounters(), x -> { });
                    p[i].postJoin(0);
                    step[i] = 0;
                }
                // Member 0 polls three times as often: it runs ahead into the next group.
                for (int k = 0; k < (i == 0 ? 3 : 1); k++) {
                    p[i].doWork(0);
                }
                if (p[i].isDone() && step[i] < 4) {
                    if (step[i] < 3) {
                        p[i].postBroadcast(java.lang.foreign.MemorySegment.ofArray(new byte[10]), step[i], 0);
                    } else {
                        p[i].postFlush(0);
                    }
                    step[i]++;
                }
            }
        }
    }

    @Test
    void groupsInARowOverOneLinkDoNotMix() {
        groupsInARow(true);
    }

    @Test
    void withoutTheMuxTheyDo() {
        // The finished instance takes the next group's messages: a mismatch, or the next group starves.
        Throwable t = assertThrows(Throwable.class, () -> groupsInARow(false));
        org.junit.jupiter.api.Assertions.assertTrue(t instanceof io.railcoll.MismatchException || t instanceof AssertionError, t.toString());
    }
}
