package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.MessageRequest;
import io.railcoll.Request;
import io.railcoll.Status;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.PredefinedOperator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Rank programs for {@code PointToPointSystemTest}: point-to-point messages on a real job (shared memory within a
 * node, rails across), every result compared with what MPI's matching promises. Message sizes include 0, 1, odd
 * and 3 MiB + 1 (more than a shared-memory ring, the node buffer and a socket buffer hold).
 */
final class PointToPointApps {
    private static final int BIG = (3 << 20) + 1;

    private PointToPointApps() {
    }

    static byte[] content(int from, int to, int index, int size) {
        byte[] b = new byte[size];
        int x = from * 7919 + to * 104729 + index * 31 + size;
        for (int i = 0; i < size; i++) {
            x = x * 1103515245 + 12345;
            b[i] = (byte) (x >>> 16);
        }
        return b;
    }

    static void require(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** One planned message: its sender, receiver, tag, size and number among the pair's messages. */
    private record Msg(int from, int to, int tag, int size, int index) {
        byte[] bytes() {
            return content(from, to, index, size);
        }
    }

    /** The same plan on every rank, from {@code seed}: per pair up to 3 messages, in sending order. */
    private static List<Msg> plan(long seed, int n) {
        Random rnd = new Random(seed);
        List<Msg> all = new ArrayList<>();
        int[][] index = new int[n][n];
        for (int round = 0; round < 3; round++) {
            for (int from = 0; from < n; from++) {
                for (int to = 0; to < n; to++) {
                    if (rnd.nextBoolean()) {
                        int size = switch (rnd.nextInt(8)) {
                            case 0 -> 0;
                            case 1 -> 1;
                            case 2 -> n <= 5 && rnd.nextInt(3) == 0 ? BIG : 70_001;
                            default -> 1 + 2 * rnd.nextInt(3000);
                        };
                        all.add(new Msg(from, to, rnd.nextInt(3), size, index[from][to]++));
                    }
                }
            }
        }
        return all;
    }

    /**
     * A plan on {@code c}: every rank sends its messages (blocking or not, at random); odd seeds receive them all
     * with receives of any source and any tag, each of which must get the next message of its sender
     * (non-overtaking); even seeds post an irecv per message for its (source, tag) in a random order, the i-th of a
     * (source, tag) getting the i-th sent with them. Returns the number of messages checked.
     */
    static int exchange(Communicator c, long seed) {
        int me = c.rank();
        int n = c.size();
        List<Msg> plan = plan(seed, n);
        Random rnd = new Random(seed * 101 + me);
        List<ArrayDeque<Msg>> fromSource = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            fromSource.add(new ArrayDeque<>());
        }
        List<Msg> mine = new ArrayList<>();
        for (Msg m : plan) {
            if (m.to == me) {
                fromSource.get(m.from).add(m);
                mine.add(m);
            }
        }
        boolean posted = seed % 2 == 0;
        List<MessageRequest> recvs = new ArrayList<>();
        List<byte[]> into = new ArrayList<>();
        List<Msg> expected = new ArrayList<>();
        if (posted) {
            // Per (source, tag) the messages in sending order; the posting order mixes them.
            List<Msg> order = new ArrayList<>(mine);
            Collections.shuffle(order, rnd);
            int[][] postedFor = new int[n][3];
            List<List<List<Msg>>> byKey = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                byKey.add(new ArrayList<>(List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>())));
            }
            for (Msg m : mine) {
                byKey.get(m.from).get(m.tag).add(m);
            }
            for (Msg m : order) {
                Msg e = byKey.get(m.from).get(m.tag).get(postedFor[m.from][m.tag]++);
                byte[] b = new byte[e.size + rnd.nextInt(3)];
                into.add(b);
                expected.add(e);
                recvs.add(c.irecv(b, m.from, m.tag));
            }
        }
        List<MessageRequest> sends = new ArrayList<>();
        for (Msg m : plan) {
            if (m.from == me) {
                if (rnd.nextBoolean()) {
                    sends.add(c.isend(m.bytes(), m.to, m.tag));
                } else {
                    c.send(m.bytes(), m.to, m.tag);
                }
            }
        }
        if (posted) {
            List<Integer> waitOrder = new ArrayList<>();
            for (int i = 0; i < recvs.size(); i++) {
                waitOrder.add(i);
            }
            Collections.shuffle(waitOrder, rnd);
            for (int i : waitOrder) {
                recvs.get(i).await();
            }
            for (int i = 0; i < recvs.size(); i++) {
                Msg e = expected.get(i);
                Status s = recvs.get(i).status();
                require(s.equals(new Status(e.from, e.tag, e.size)), c.name() + " rank " + me + ": irecv " + i + " got "
                        + s + ", expected " + e);
                require(Arrays.equals(e.bytes(), Arrays.copyOf(into.get(i), e.size)), "content of " + e);
            }
        } else {
            byte[] b = new byte[BIG + 1];
            for (int k = 0; k < mine.size(); k++) {
                Status s = c.recv(b, Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                Msg e = fromSource.get(s.source()).poll();
                require(e != null && s.equals(new Status(e.from, e.tag, e.size)), c.name() + " rank " + me + ": got "
                        + s + ", expected the next from rank " + s.source() + ": " + e);
                require(Arrays.equals(e.bytes(), Arrays.copyOf(b, e.size)), "content of " + e);
            }
        }
        Request.awaitAll(sends.toArray(new Request[0]));
        // No rank sends the next plan's messages before every rank has received this one's: a receive of any source
        // and any tag would rightly take them.
        c.barrier();
        return mine.size();
    }

    /** Rings both ways and all pairs with sendRecv, at sizes 0, 1, odd and 3 MiB + 1; returns the cases checked. */
    static int ringsAndPairs(Communicator c) {
        int me = c.rank();
        int n = c.size();
        int cases = 0;
        for (int size : new int[] {0, 1, 4099, BIG}) {
            byte[] into = new byte[size];
            int prev = (me + n - 1) % n;
            int next = (me + 1) % n;
            Status s = c.sendRecv(content(me, next, 1, size), next, 1, into, prev, 1);
            require(s.equals(new Status(prev, 1, size)) && Arrays.equals(into, content(prev, me, 1, size)), "ring " + s);
            s = c.sendRecv(content(me, prev, 2, size), prev, 2, into, Communicator.ANY_SOURCE, 2);
            require(s.equals(new Status(next, 2, size)) && Arrays.equals(into, content(next, me, 2, size)), "ring back " + s);
            for (int k = 0; k < n; k++) {
                int to = (me + k) % n;
                int from = (me - k + n) % n;
                s = c.sendRecv(content(me, to, 10 + k, size), to, 10 + k, into, from, 10 + k);
                require(s.equals(new Status(from, 10 + k, size)) && Arrays.equals(into, content(from, me, 10 + k, size)),
                        "pair " + k + ": " + s);
            }
            cases += 2 + n;
        }
        return cases;
    }

    /**
     * Messages beside collectives: a non-blocking barrier started before a send whose receiver receives before it
     * joins the barrier, and a message posted before an all-reduce and completed after it.
     */
    static int besideCollectives(Communicator c) {
        int me = c.rank();
        int n = c.size();
        byte[] into = new byte[BIG];
        if (n > 1) {
            if (me == 0) {
                Request b = c.ibarrier();
                c.send(content(0, 1, 3, BIG), 1, 3);
                b.await();
            } else if (me == 1) {
                Status s = c.recv(into, 0, 3);
                require(s.equals(new Status(0, 3, BIG)) && Arrays.equals(into, content(0, 1, 3, BIG)), "before barrier");
                c.ibarrier().await(); // a non-blocking barrier matches only non-blocking ones (MPI-3)
            } else {
                c.ibarrier().await();
            }
        }
        int prev = (me + n - 1) % n;
        MessageRequest r = c.irecv(into, prev, 4);
        MessageRequest w = c.isend(content(me, (me + 1) % n, 4, 4099), (me + 1) % n, 4);
        long[] sum = new long[1];
        c.allreduce(new long[] {me + 1}, sum, PredefinedOperator.SUM);
        require(sum[0] == (long) n * (n + 1) / 2, "allreduce " + sum[0]);
        Request.awaitAll(r, w);
        require(r.status().equals(new Status(prev, 4, 4099)), "after allreduce " + r.status());
        return 2;
    }

    /**
     * Every case on the world, then on the odd/even ranks and on each node's ranks (their own rank numbers and
     * contexts, with the world's messages of the same tags in flight beside them). Prints
     * {@code P2P-OK rank r cases n}.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator world, List<String> args) {
            int me = world.rank();
            int cases = 0;
            // The world's message to the next rank goes out first and is received last, after the sub-communicators'.
            int next = (me + 1) % world.size();
            MessageRequest early = world.irecv(new byte[64], (me + world.size() - 1) % world.size(), 0);
            world.send(content(me, next, 0, 64), next, 0);
            for (long seed = 1; seed <= 4; seed++) {
                cases += exchange(world, seed);
            }
            cases += ringsAndPairs(world);
            cases += besideCollectives(world);
            try (Communicator parity = world.split(me % 2, me).orElseThrow();
                 Communicator node = world.splitByNode()) {
                cases += exchange(parity, 10 + me % 2);
                cases += ringsAndPairs(parity);
                cases += exchange(node, 20);
                cases += besideCollectives(node);
                cases += exchange(world, 31);
            }
            early.await();
            require(early.status().source() == (me + world.size() - 1) % world.size(), "early " + early.status());
            world.barrier();
            System.out.println("P2P-OK rank " + me + " cases " + (cases + 1));
        }
    }
}
