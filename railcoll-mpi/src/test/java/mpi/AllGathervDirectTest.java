package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code allGatherv} into direct buffers, whose blocks railcoll now lands in the program's memory with no staging copy
 * in the mpi layer (decision 0160), checked byte for byte on 3 and 5 real ranks ({@link InProcessComms}) against
 * what MPI says must be there, with the same call on heap arrays (the staged path) beside it: uneven counts, zero
 * counts (some ranks, and all), a receive buffer at an offset ({@code MPI.slice}), displacements with gaps and in
 * reverse rank order (the bytes in the gaps must stay as they were), an {@code INT} type, and in place. Each case runs
 * blocking and non-blocking ({@code iAllGatherv} and its wait, which lands in the same places, decision 0087; on heap
 * buffers it stages).
 */
class AllGathervDirectTest {
    /** What a byte no block may write holds before and after. */
    private static final byte UNTOUCHED = 0x5A;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {3, 5})
    void blocksLandByteForByteInDirectBuffers(int n) throws Exception {
        List<Object> got = InProcessComms.onRanks(n, (comm, rank) -> {
            List<String> failures = new ArrayList<>();
            for (Layout l : layouts(n)) {
                for (int round = 0; round < 4; round++) { // each form twice: the second reuses the kept layouts
                    boolean nonBlocking = round >= 2;
                    bytes(comm, rank, n, l, round, nonBlocking, failures);
                    ints(comm, rank, n, l, round, nonBlocking, failures);
                }
            }
            return failures;
        });
        for (int r = 0; r < n; r++) {
            assertEquals(List.of(), got.get(r), "rank " + r);
        }
    }

    /** Counts and displacements in elements; {@code span} elements in the receive buffer. */
    private record Layout(String name, int[] counts, int[] displs, int span) {
    }

    private static List<Layout> layouts(int n) {
        List<Layout> all = new ArrayList<>();
        int[] uneven = new int[n];
        int[] zeros = new int[n];
        int[] none = new int[n];
        for (int r = 0; r < n; r++) {
            uneven[r] = 3 * r + 1;
            zeros[r] = r % 2 == 0 ? 0 : r + 2;
        }
        all.add(packed("uneven, packed", uneven));
        all.add(packed("zero counts on even ranks", zeros));
        all.add(packed("every count zero", none));
        // Gaps of 2 elements, blocks in reverse rank order.
        int[] reversed = new int[n];
        int at = 2;
        for (int r = n - 1; r >= 0; r--) {
            reversed[r] = at;
            at += uneven[r] + 2;
        }
        all.add(new Layout("uneven, reversed with gaps", uneven, reversed, at));
        return all;
    }

    private static Layout packed(String name, int[] counts) {
        int[] displs = new int[counts.length];
        int at = 0;
        for (int r = 0; r < counts.length; r++) {
            displs[r] = at;
            at += counts[r];
        }
        return new Layout(name, counts, displs, at);
    }

    private static byte value(int rank, int i, int round) {
        return (byte) (rank * 31 + i * 7 + round + 1);
    }

    /** allGatherv, or iAllGatherv and its wait; {@code send} null: in place. */
    private static void gatherv(Intracomm comm, boolean nonBlocking, java.nio.Buffer send, int count, Datatype type,
                                java.nio.Buffer recv, Layout l) throws MPIException {
        if (!nonBlocking) {
            if (send == null) {
                comm.allGatherv(recv, l.counts(), l.displs(), type);
            } else {
                comm.allGatherv(send, count, type, recv, l.counts(), l.displs(), type);
            }
            return;
        }
        Request r = send == null ? comm.iAllGatherv(recv, l.counts(), l.displs(), type)
                : comm.iAllGatherv(send, count, type, recv, l.counts(), l.displs(), type);
        r.waitFor();
    }

    /**
     * MPI.BYTE: a direct buffer, the same at an offset of 5 bytes, a byte[] (blocking) or a heap ByteBuffer
     * (non-blocking); then in place in a direct buffer.
     */
    private static void bytes(Intracomm comm, int rank, int n, Layout l, int round, boolean nonBlocking,
                              List<String> failures) throws MPIException {
        String form = nonBlocking ? "iAllGatherv " : "";
        byte[] expected = new byte[l.span()];
        java.util.Arrays.fill(expected, UNTOUCHED);
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < l.counts()[r]; i++) {
                expected[l.displs()[r] + i] = value(r, i, round);
            }
        }
        int mine = l.counts()[rank];
        ByteBuffer send = MPI.newByteBuffer(Math.max(1, mine));
        for (int i = 0; i < mine; i++) {
            send.put(i, value(rank, i, round));
        }
        ByteBuffer direct = filled(MPI.newByteBuffer(l.span()));
        gatherv(comm, nonBlocking, send, mine, MPI.BYTE, direct, l);
        check(failures, l, round, form + "direct", expected, direct, 0);

        int offset = 5;
        ByteBuffer whole = filled(MPI.newByteBuffer(l.span() + offset));
        gatherv(comm, nonBlocking, send, mine, MPI.BYTE, MPI.slice(whole, offset), l);
        check(failures, l, round, form + "direct at offset " + offset, expected, whole, offset);
        for (int i = 0; i < offset; i++) {
            if (whole.get(i) != UNTOUCHED) {
                failures.add(l.name() + " round " + round + ": byte " + i + " before the offset was written");
            }
        }

        byte[] array = new byte[l.span()];
        java.util.Arrays.fill(array, UNTOUCHED);
        byte[] sendArray = new byte[Math.max(1, mine)];
        for (int i = 0; i < mine; i++) {
            sendArray[i] = value(rank, i, round);
        }
        if (nonBlocking) {
            gatherv(comm, true, ByteBuffer.wrap(sendArray), mine, MPI.BYTE, ByteBuffer.wrap(array), l);
        } else {
            comm.allGatherv(sendArray, mine, MPI.BYTE, array, l.counts(), l.displs(), MPI.BYTE);
        }
        check(failures, l, round, form + "byte[]", expected, ByteBuffer.wrap(array), 0);

        ByteBuffer inPlace = filled(MPI.newByteBuffer(l.span()));
        for (int i = 0; i < mine; i++) {
            inPlace.put(l.displs()[rank] + i, value(rank, i, round));
        }
        gatherv(comm, nonBlocking, null, 0, MPI.BYTE, inPlace, l);
        check(failures, l, round, form + "direct in place", expected, inPlace, 0);
    }

    /** MPI.INT in a direct IntBuffer: displacements in elements, 4 bytes each. */
    private static void ints(Intracomm comm, int rank, int n, Layout l, int round, boolean nonBlocking,
                             List<String> failures) throws MPIException {
        int[] expected = new int[l.span()];
        java.util.Arrays.fill(expected, -7);
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < l.counts()[r]; i++) {
                expected[l.displs()[r] + i] = 100_000 * r + 1000 * round + i;
            }
        }
        int mine = l.counts()[rank];
        IntBuffer send = MPI.newIntBuffer(Math.max(1, mine));
        for (int i = 0; i < mine; i++) {
            send.put(i, 100_000 * rank + 1000 * round + i);
        }
        IntBuffer recv = MPI.newIntBuffer(l.span());
        for (int i = 0; i < l.span(); i++) {
            recv.put(i, -7);
        }
        gatherv(comm, nonBlocking, send, mine, MPI.INT, recv, l);
        for (int i = 0; i < l.span(); i++) {
            if (recv.get(i) != expected[i]) {
                failures.add(l.name() + " round " + round + (nonBlocking ? " iAllGatherv" : "") + " direct INT: element " + i + " is " + recv.get(i)
                        + ", expected " + expected[i]);
                return;
            }
        }
    }

    private static ByteBuffer filled(ByteBuffer b) {
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, UNTOUCHED);
        }
        return b;
    }

    private static void check(List<String> failures, Layout l, int round, String what, byte[] expected, ByteBuffer got,
                              int offset) {
        for (int i = 0; i < expected.length; i++) {
            if (got.get(offset + i) != expected[i]) {
                failures.add(l.name() + " round " + round + " " + what + ": byte " + i + " is " + got.get(offset + i)
                        + ", expected " + expected[i]);
                return;
            }
        }
    }
}
