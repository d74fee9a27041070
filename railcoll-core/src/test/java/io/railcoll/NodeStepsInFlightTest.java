package io.railcoll;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Node steps run by the engine (decision 0101) on real communicators sharing one node region in this JVM: a
 * barrier and two broadcasts in node steps in flight at once, completed in another order than started, byte for byte.
 */
class NodeStepsInFlightTest {
    private static final Config CONFIG = Config.defaults().withTimeoutNs(TimeUnit.SECONDS.toNanos(60));

    @Test
    void nodeStepCollectivesInFlightTogetherCompleteOutOfOrder() throws Exception {
        try (InProcessRanks ranks = InProcessRanks.startOnOneNode(3, CONFIG)) {
            ranks.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.shm");
                c.forceAlgorithm("barrier.shm");
                byte[] small = new byte[100_003];
                byte[] large = new byte[3_000_001]; // more than the node buffer: slots reused after drain flags
                if (c.rank() == 1) {
                    fill(small, 1);
                }
                if (c.rank() == 2) {
                    fill(large, 2);
                }
                for (int round = 0; round < 3; round++) {
                    Request first = c.ibroadcast(small, 1);
                    Request barrier = c.ibarrier();
                    Request second = c.ibroadcast(large, 2);
                    second.await();
                    barrier.await();
                    first.await();
                    check(small, 1);
                    check(large, 2);
                }
                byte[] one = new byte[1];
                if (c.rank() == 0) {
                    one[0] = 42;
                }
                c.broadcast(one, 0);
                assertEquals(42, one[0]);
                c.barrier();
            });
        }
    }

    /**
     * The node buffer's two halves (decision 0186): a call's writes wait only for the last call on the same half, so a
     * reader of one call may still be copying out while the next call's root writes the other half. Many broadcasts
     * back to back, blocking and several in flight, roots and sizes changing every call (one byte to more than a
     * half, which streams through its slots), barriers between some of them so that the halves' turns do not simply
     * alternate per broadcast; every rank checks every byte of every call, each call with its own pattern. A root
     * that wrote into a half a node-mate still read, or read the wrong half, shows as a wrong byte.
     */
    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void backToBackBroadcastsNeverReadAHalfALaterCallOverwrote(int ranks) throws Exception {
        long[] sizes = {1, 100, 4093, 65536, 65537, 300_007, 1, 2_500_001, 17, 131_072};
        try (InProcessRanks all = InProcessRanks.startOnOneNode(ranks, CONFIG)) {
            all.onEveryRank(c -> {
                c.forceAlgorithm("broadcast.shm");
                c.forceAlgorithm("barrier.shm");
                int call = 0;
                for (int round = 0; round < 3; round++) {
                    for (long size : sizes) { // blocking, one after the other
                        int root = (call * 7 + round) % ranks;
                        byte[] b = new byte[(int) size];
                        if (c.rank() == root) {
                            fill(b, call);
                        }
                        c.broadcast(b, root);
                        check(b, call);
                        if (call % 4 == 3) {
                            c.barrier();
                        }
                        call++;
                    }
                    byte[][] bufs = new byte[4][];
                    Request[] requests = new Request[4];
                    for (int i = 0; i < sizes.length; i += 4) { // four in flight, completed last first
                        int first = call;
                        int n = Math.min(4, sizes.length - i);
                        for (int j = 0; j < n; j++) {
                            int root = (call * 5 + 1) % ranks;
                            bufs[j] = new byte[(int) sizes[i + j]];
                            if (c.rank() == root) {
                                fill(bufs[j], call);
                            }
                            requests[j] = c.ibroadcast(bufs[j], root);
                            call++;
                        }
                        for (int j = n - 1; j >= 0; j--) {
                            requests[j].await();
                        }
                        for (int j = 0; j < n; j++) {
                            check(bufs[j], first + j);
                        }
                    }
                }
            });
        }
    }

    /**
     * Node-mates that disagree on the size, or on the collective, of a call in node steps fail with a mismatch, every
     * one of them (at the latest in their next call), and the rank that finds it before it reads the other's bytes as
     * its own: node steps carry no frame header, so the engine compares the call each node-mate noted before its
     * first raise (decision 0152).
     */
    @Test
    void nodeMatesThatDisagreeInNodeStepsFailWithAMismatchOnEveryRank() throws Exception {
        for (boolean otherCollective : new boolean[] {false, true}) {
            try (InProcessRanks ranks = InProcessRanks.startOnOneNode(3, CONFIG)) {
                ranks.onEveryRank(c -> {
                    c.forceAlgorithm("broadcast.shm");
                    c.forceAlgorithm("barrier.shm");
                    c.broadcast(new byte[5], 0); // one agreed call first
                });
                List<Future<?>> calls = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    boolean odd = r == 1;
                    calls.add(ranks.async(r, c -> {
                        if (odd && otherCollective) {
                            c.barrier();
                        } else {
                            c.broadcast(new byte[odd ? 200 : 100], 0);
                        }
                        // The root (and a rank that agrees with it) may finish the call before a waiter compares;
                        // they learn it from the next one, which the finder's abort ends.
                        c.barrier();
                    }));
                }
                for (int r = 0; r < 3; r++) {
                    int rank = r;
                    ExecutionException e = assertThrows(
                            ExecutionException.class,
                            () -> calls.get(rank).get(60, TimeUnit.SECONDS));
                    assertInstanceOf(MismatchException.class, e.getCause(),
                            () -> "rank " + rank + " got " + e.getCause());
                }
            }
        }
    }

    private static void fill(byte[] b, int seed) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
    }

    private static void check(byte[] b, int seed) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] != (byte) (i * 31 + seed)) {
                assertEquals((byte) (i * 31 + seed), b[i], "byte " + i + " of " + b.length);
            }
        }
    }
}
