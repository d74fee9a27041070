package io.railcoll.transport.mcast;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FaultInjectingPortTest {
    @Test
    void specsParseAndPrint() {
        FaultPlan p = FaultPlan.parse("loss=5%,corrupt=1%, duplicate=0.01,reorder=5%,seed=42");
        assertEquals(0.05, p.loss(), 1e-12);
        assertEquals(0.01, p.corrupt(), 1e-12);
        assertEquals(0.01, p.duplicate(), 1e-12);
        assertEquals(0.05, p.reorder(), 1e-12);
        assertEquals(42, p.seed());
        assertEquals("loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=42", p.toString());
        assertTrue(FaultPlan.parse("").isNone());
        assertTrue(FaultPlan.parse("none").isNone());
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse("loss=150%"));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse("jitter=5%"));
        assertThrows(IllegalArgumentException.class, () -> FaultPlan.parse("loss"));
    }

    private static List<Integer> pass(FaultPlan plan, int count, FaultInjectingPort[] out) throws Exception {
        SimNetwork net = new SimNetwork();
        SimNetwork.Port sender = net.port();
        FaultInjectingPort port = new FaultInjectingPort(net.port(), plan);
        out[0] = port;
        List<Integer> got = new ArrayList<>();
        ByteBuffer b = ByteBuffer.allocate(64);
        for (int i = 0; i < count; i++) {
            ByteBuffer d = ByteBuffer.allocate(8);
            d.putInt(i).putInt(~i).flip();
            sender.send(d);
            // Drained in bursts of ten: a held datagram is released when nothing else waits, so the reordering
            // shows only where datagrams queue up, as on a real socket.
            while (i % 10 == 9 && port.receive(b)) {
                got.add(b.getInt(0) == ~b.getInt(4) ? b.getInt(0) : -1);
            }
        }
        while (port.receive(b)) {
            got.add(b.getInt(0) == ~b.getInt(4) ? b.getInt(0) : -1);
        }
        return got;
    }

    @Test
    void faultsHappenAtAboutTheirRatesAndTheSameSeedGivesTheSameRun() throws Exception {
        FaultPlan plan = FaultPlan.parse("loss=5%,corrupt=1%,duplicate=1%,reorder=5%,seed=7");
        FaultInjectingPort[] port = new FaultInjectingPort[1];
        List<Integer> first = pass(plan, 20_000, port);
        assertEquals(first, pass(plan, 20_000, new FaultInjectingPort[1]));
        assertTrue(port[0].dropped() > 800 && port[0].dropped() < 1200, "dropped " + port[0].dropped());
        assertTrue(port[0].corrupted() > 100 && port[0].corrupted() < 300, "corrupted " + port[0].corrupted());
        assertTrue(port[0].duplicated() > 100 && port[0].duplicated() < 300, "duplicated " + port[0].duplicated());
        assertTrue(port[0].reordered() > 700, "reordered " + port[0].reordered());
        assertEquals(20_000 - port[0].dropped() + port[0].duplicated(), first.size());
        int outOfOrder = 0;
        for (int i = 1; i < first.size(); i++) {
            if (first.get(i) >= 0 && first.get(i - 1) > first.get(i)) {
                outOfOrder++;
            }
        }
        assertTrue(outOfOrder > 500, "out of order " + outOfOrder);
        assertTrue(first.stream().filter(x -> x < 0).count() > 0, "no corrupted datagram delivered");
    }

    @Test
    void noFaultsChangesNothing() throws Exception {
        List<Integer> got = pass(FaultPlan.NONE, 1000, new FaultInjectingPort[1]);
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, got.get(i));
        }
    }
}
