package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Collective;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * One case of a v-variant (gatherv, scatterv, all-gatherv, all-to-allv, reduce-scatter with per-rank counts) run on
 * one rank and checked byte for byte against a sequential reference computed here, the bytes around the blocks
 * included (they must stay untouched). Every rank of a job calls {@link #runCase} with the same arguments. Shared by
 * {@code VariableCollectivesTest} (in-process ranks) and the system tests' {@code VariableApps} (real processes,
 * through railcoll-core's test jar); a wrong result throws {@link AssertionError}.
 */
public final class VariantCases {
    private static final byte UNTOUCHED = 0x5A;

    private VariantCases() {
    }

    private static void check(byte[] expected, byte[] actual, String label) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(label + ": expected " + describe(expected) + " got " + describe(actual));
        }
    }

    private static void check(long[] expected, long[] actual, String label) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(label + ": expected " + Arrays.toString(expected) + " got "
                    + Arrays.toString(actual));
        }
    }

    private static String describe(byte[] b) {
        return b.length <= 64 ? Arrays.toString(b) : b.length + " bytes, first difference shown by index";
    }

    /** All zero, one non-empty block, equal odd blocks, seeded uneven ones with zeros, and one large block. */
    public static List<long[]> countVectors(int n, long seed) {
        Random random = new Random(seed);
        List<long[]> list = new ArrayList<>();
        list.add(new long[n]);
        long[] one = new long[n];
        one[n - 1] = 1001;
        list.add(one);
        long[] equal = new long[n];
        Arrays.fill(equal, 7);
        list.add(equal);
        for (int k = 0; k < 2; k++) {
            long[] uneven = new long[n];
            for (int i = 0; i < n; i++) {
                uneven[i] = random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(3000);
            }
            list.add(uneven);
        }
        long[] large = new long[n];
        for (int i = 0; i < n; i++) {
            large[i] = i == n / 2 ? 70001 : i % 2 * 13;
        }
        list.add(large);
        return list;
    }

    /** Byte k of the block rank {@code from} contributes (to rank {@code to} in an all-to-allv). */
    static byte pattern(int seed, int from, int to, long k) {
        return (byte) (seed * 131 + from * 31 + to * 17 + k * 7 + (k >>> 8));
    }

    /** Displacements: packed (null), or blocks in reverse rank order with a gap of 3 bytes before each. */
    static long[] displacements(long[] lengths, boolean spread) {
        if (!spread) {
            return null;
        }
        long[] d = new long[lengths.length];
        long at = 0;
        for (int i = lengths.length - 1; i >= 0; i--) {
            at += 3;
            d[i] = at;
            at += lengths[i];
        }
        return d;
    }

    static long extent(long[] lengths, long[] displs) {
        long end = 0;
        for (int i = 0; i < lengths.length; i++) {
            end = Math.max(end, (displs == null ? offset(lengths, i) : displs[i]) + lengths[i]);
        }
        return end + 5; // bytes past the last block, which must stay untouched
    }

    static long offset(long[] lengths, int i) {
        long at = 0;
        for (int j = 0; j < i; j++) {
            at += lengths[j];
        }
        return at;
    }

    static long place(long[] lengths, long[] displs, int i) {
        return displs == null ? offset(lengths, i) : displs[i];
    }

    static byte[] untouched(long bytes) {
        byte[] b = new byte[Math.toIntExact(bytes)];
        Arrays.fill(b, UNTOUCHED);
        return b;
    }

    /** The all-to-allv matrix for a count vector: rank i sends rank j {@code counts[(i + 2j) mod N] / (j + 1)}. */
    static long[][] matrix(long[] counts) {
        int n = counts.length;
        long[][] m = new long[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                m[i][j] = counts[(i + 2 * j) % n] / (j + 1);
            }
        }
        return m;
    }

    /** Runs one case on {@code comm}'s rank and checks its buffers. */
    public static void runCase(Communicator comm, Collective c, long[] counts, int root, boolean spread, boolean inPlace,
                        int seed, String label) {
        startCase(comm, c, counts, root, spread, inPlace, seed, label, false).check().run();
    }

    /**
     * A case started: its request (null when it ran blocking) and the check of its buffers, to run once the request
     * has finished.
     */
    public record Started(Request request, Runnable check) {
    }

    /**
     * Starts one case on {@code comm}'s rank: through the non-blocking form when {@code nonBlocking} (decision 0108),
     * the blocking one otherwise. A long[] send buffer (reduce-scatter's) is overwritten as soon as the non-blocking
     * call returns: it was copied when the call started, and a call that read it late would be caught.
     */
    public static Started startCase(Communicator comm, Collective c, long[] counts, int root, boolean spread,
                                    boolean inPlace, int seed, String label, boolean nonBlocking) {
        int n = comm.size();
        int me = comm.rank();
        Request[] request = new Request[1];
        return switch (c) {
            case GATHERV -> {
                long[] displs = displacements(counts, spread);
                byte[] send = block(seed, me, 0, counts[me]);
                byte[] recv = me == root ? untouched(extent(counts, displs)) : null;
                boolean here = inPlace && me == root;
                if (here) {
                    System.arraycopy(send, 0, recv, (int) place(counts, displs, me), send.length);
                }
                if (nonBlocking) {
                    request[0] = comm.igatherv(here ? null : send, recv, counts, displs, root);
                } else {
                    comm.gatherv(here ? null : send, recv, counts, displs, root);
                }
                yield new Started(request[0], () -> {
                    if (me == root) {
                        check(expectedBlocks(seed, counts, displs, recv.length, -1), recv, label);
                    }
                });
            }
            case SCATTERV -> {
                long[] displs = displacements(counts, spread);
                byte[] send = null;
                if (me == root) {
                    send = untouched(extent(counts, displs));
                    for (int i = 0; i < n; i++) {
                        System.arraycopy(block(seed, i, 0, counts[i]), 0, send, (int) place(counts, displs, i),
                                (int) counts[i]);
                    }
                }
                byte[] before = send == null ? null : send.clone();
                boolean here = inPlace && me == root;
                byte[] recv = here ? null : untouched(counts[me] + 4);
                if (nonBlocking) {
                    request[0] = comm.iscatterv(send == null ? null : ByteBuffer.wrap(send), counts, displs,
                            recv == null ? null : ByteBuffer.wrap(recv), root);
                } else {
                    comm.scatterv(send == null ? null : ByteBuffer.wrap(send), counts, displs,
                            recv == null ? null : ByteBuffer.wrap(recv), root);
                }
                byte[] sent = send;
                yield new Started(request[0], () -> {
                    if (recv != null) {
                        byte[] expected = untouched(counts[me] + 4);
                        System.arraycopy(block(seed, me, 0, counts[me]), 0, expected, 0, (int) counts[me]);
                        check(expected, recv, label);
                    }
                    if (sent != null) {
                        check(before, sent, label + ": the root's send buffer changed");
                    }
                });
            }
            case ALLGATHERV -> {
                long[] displs = displacements(counts, spread);
                byte[] send = block(seed, me, 0, counts[me]);
                byte[] recv = untouched(extent(counts, displs));
                if (inPlace) {
                    System.arraycopy(send, 0, recv, (int) place(counts, displs, me), send.length);
                }
                MemorySegment r = MemorySegment.ofArray(recv);
                if (nonBlocking) {
                    request[0] = comm.iallgatherv(inPlace ? null : MemorySegment.ofArray(send), r, counts, displs);
                } else {
                    comm.allgatherv(inPlace ? null : MemorySegment.ofArray(send), r, counts, displs);
                }
                yield new Started(request[0],
                        () -> check(expectedBlocks(seed, counts, displs, recv.length, -1), recv, label));
            }
            case ALLTOALLV -> {
                long[][] m = matrix(counts);
                long[] sendCounts = m[me].clone();
                long[] recvCounts = new long[n];
                for (int i = 0; i < n; i++) {
                    recvCounts[i] = m[i][me];
                }
                if (inPlace) {
                    // In place, MPI sends recvCounts: only a symmetric matrix is consistent.
                    for (int i = 0; i < n; i++) {
                        long s = Math.min(m[i][me], m[me][i]);
                        recvCounts[i] = s;
                    }
                    sendCounts = recvCounts;
                }
                long[] sd = displacements(sendCounts, spread);
                long[] rd = displacements(recvCounts, !spread);
                byte[] send = untouched(extent(sendCounts, sd));
                for (int j = 0; j < n; j++) {
                    System.arraycopy(block(seed, me, j, sendCounts[j]), 0, send, (int) place(sendCounts, sd, j),
                            (int) sendCounts[j]);
                }
                byte[] recv;
                if (inPlace) {
                    recv = untouched(extent(recvCounts, rd));
                    for (int j = 0; j < n; j++) {
                        System.arraycopy(block(seed, me, j, recvCounts[j]), 0, recv, (int) place(recvCounts, rd, j),
                                (int) recvCounts[j]);
                    }
                    if (nonBlocking) {
                        request[0] = comm.ialltoallv((byte[]) null, null, null, recv, recvCounts, rd);
                    } else {
                        comm.alltoallv((byte[]) null, null, null, recv, recvCounts, rd);
                    }
                } else {
                    recv = untouched(extent(recvCounts, rd));
                    if (nonBlocking) {
                        request[0] = comm.ialltoallv(send, sendCounts, sd, recv, recvCounts, rd);
                    } else {
                        comm.alltoallv(send, sendCounts, sd, recv, recvCounts, rd);
                    }
                }
                byte[] expected = untouched(recv.length);
                for (int i = 0; i < n; i++) {
                    System.arraycopy(block(seed, i, me, recvCounts[i]), 0, expected, (int) place(recvCounts, rd, i),
                            (int) recvCounts[i]);
                }
                byte[] got = recv;
                yield new Started(request[0], () -> check(expected, got, label));
            }
            case REDUCE_SCATTERV -> {
                long[] elements = new long[n];
                for (int i = 0; i < n; i++) {
                    elements[i] = counts[i] / 8;
                }
                long total = Arrays.stream(elements).sum();
                Operator op = seed % 2 == 0 ? PredefinedOperator.SUM : ReductionCollectivesTest.AFFINE;
                boolean sum = op == PredefinedOperator.SUM;
                if (!sum && !comm.selectedAlgorithm(Collective.REDUCE_SCATTERV, 8, 0).equals("reduce-scatterv.direct")
                        && n > 1) {
                    op = PredefinedOperator.SUM; // the ring refuses a non-commutative operator
                    sum = true;
                }
                long[] send = new long[(int) total];
                for (int k = 0; k < total; k++) {
                    send[k] = value(seed, me, k, sum);
                }
                long mine = elements[me];
                long before = offset(elements, me);
                long[] expected = new long[(int) mine];
                for (int k = 0; k < mine; k++) {
                    long acc = value(seed, n - 1, before + k, sum);
                    for (int q = n - 2; q >= 0; q--) {
                        long x = value(seed, q, before + k, sum);
                        acc = sum ? x + acc : ReductionCollectivesTest.compose(x, acc);
                    }
                    expected[k] = acc;
                }
                if (inPlace) {
                    if (nonBlocking) {
                        request[0] = comm.ireduceScatter(MemorySegment.ofArray(send), ElementType.LONG, elements, op);
                    } else {
                        comm.reduceScatter(MemorySegment.ofArray(send), ElementType.LONG, elements, op);
                    }
                    yield new Started(request[0], () -> check(expected, Arrays.copyOf(send, (int) mine), label));
                }
                long[] recv = new long[(int) mine + 2];
                Arrays.fill(recv, 0x5A5A5A5A5A5A5A5AL);
                if (nonBlocking) {
                    request[0] = comm.ireduceScatter(send, recv, elements, op);
                    Arrays.fill(send, -1); // a long[] is staged when the call starts
                } else {
                    comm.reduceScatter(send, recv, elements, op);
                }
                long[] want = Arrays.copyOf(expected, (int) mine + 2);
                want[(int) mine] = 0x5A5A5A5A5A5A5A5AL;
                want[(int) mine + 1] = 0x5A5A5A5A5A5A5A5AL;
                yield new Started(request[0], () -> check(want, recv, label));
            }
            default -> throw new AssertionError(c);
        };
    }

    /**
     * Starts a call of {@code c} on 3 ranks in which rank 2 disagrees about rank 0's count only (its own block is
     * empty, as is rank 0's for the others): the ranks that never exchange a non-empty block must still find out. The
     * non-blocking form returns its request; the blocking one runs and returns null.
     */
    static Request disagree(Communicator comm, Collective c, boolean nonBlocking) {
        long[] counts = comm.rank() == 2 ? new long[] {8, 16, 0} : new long[] {0, 16, 0};
        long[] recvCounts = comm.rank() == 2 ? new long[] {8, 0, 0} : new long[3];
        long[] elements = {counts[0] / 8, 2, 0};
        if (nonBlocking) {
            return switch (c) {
                case GATHERV -> comm.igatherv(new byte[16], new byte[32], counts, null, 1);
                case SCATTERV -> comm.iscatterv(new byte[32], counts, null, new byte[16], 1);
                case ALLGATHERV -> comm.iallgatherv(new byte[16], new byte[32], counts, null);
                case ALLTOALLV -> comm.ialltoallv(new byte[32], new long[3], null, new byte[32], recvCounts, null);
                case REDUCE_SCATTERV -> comm.ireduceScatter(new long[4], new long[4], elements, PredefinedOperator.SUM);
                default -> throw new AssertionError(c);
            };
        }
        switch (c) {
            case GATHERV -> comm.gatherv(new byte[16], new byte[32], counts, null, 1);
            case SCATTERV -> comm.scatterv(new byte[32], counts, null, new byte[16], 1);
            case ALLGATHERV -> comm.allgatherv(new byte[16], new byte[32], counts, null);
            case ALLTOALLV -> comm.alltoallv(new byte[32], new long[3], null, new byte[32], recvCounts, null);
            case REDUCE_SCATTERV -> comm.reduceScatter(new long[4], new long[4], elements, PredefinedOperator.SUM);
            default -> throw new AssertionError(c);
        }
        return null;
    }

    private static long value(int seed, int rank, long k, boolean sum) {
        long x = pattern(seed, rank, 0, k) * 1_000_003L + rank * 7 + k;
        // The affine operator composes (a, b) pairs packed in a long; keep the multiplier odd so nothing collapses.
        return sum ? x : x | 1L << 32;
    }

    static byte[] block(int seed, int from, int to, long length) {
        byte[] b = new byte[Math.toIntExact(length)];
        for (int k = 0; k < b.length; k++) {
            b[k] = pattern(seed, from, to, k);
        }
        return b;
    }

    /** A receive buffer of {@code bytes} with rank i's block at its place (to rank {@code to}, or 0 when -1). */
    static byte[] expectedBlocks(int seed, long[] counts, long[] displs, int bytes, int to) {
        byte[] e = untouched(bytes);
        for (int i = 0; i < counts.length; i++) {
            System.arraycopy(block(seed, i, Math.max(0, to), counts[i]), 0, e, (int) place(counts, displs, i),
                    (int) counts[i]);
        }
        return e;
    }

}
