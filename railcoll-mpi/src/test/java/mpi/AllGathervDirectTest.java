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
 * reverse rank order (the bytes in the gaps must stay as they were), an {@code INT} type, and in place.
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
                for (int round = 0; round < 2; round++) { // twice: the second call reuses the kept layouts
                    bytes(comm, rank, n, l, round, failures);
                    ints(comm, rank, n, l, round, failures);
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

    /** MPI.BYTE: a direct buffer, the same at an offset of 5 bytes, a byte[]; then in place in a direct buffer. */
    private static void bytes(Intracomm comm, int rank, int n, Layout l, int round, List<String> failures)
            throws MPIException {
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
        comm.allGatherv(send, mine, MPI.BYTE, direct, l.counts(), l.displs(), MPI.BYTE);
        check(failures, l, round, "direct", expected, direct, 0);

        int offset = 5;
        ByteBuffer whole = filled(MPI.newByteBuffer(l.span() + offset));
        comm.allGatherv(send, mine, MPI.BYTE, MPI.slice(whole, offset), l.counts(), l.displs(), MPI.BYTE);
        check(failures, l, round, "direct at offset " + offset, expected, whole, offset);
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
        comm.allGatherv(sendArray, mine, MPI.BYTE, array, l.counts(), l.displs(), MPI.BYTE);
        check(failures, l, round, "byte[]", expected, ByteBuffer.wrap(array), 0);

        ByteBuffer inPlace = filled(MPI.newByteBuffer(l.span()));
        for (int i = 0; i < mine; i++) {
            inPlace.put(l.displs()[rank] + i, value(rank, i, round));
        }
        comm.allGatherv(inPlace, l.counts(), l.displs(), MPI.BYTE);
        check(failures, l, round, "direct in place", expected, inPlace, 0);
    }

    /** MPI.INT in a direct IntBuffer: displacements in elements, 4 bytes each. */
    private static void ints(Intracomm comm, int rank, int n, Layout l, int round, List<String> failures)
            throws MPIException {
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
        comm.allGatherv(send, mine, MPI.INT, recv, l.counts(), l.displs(), MPI.INT);
        for (int i = 0; i < l.span(); i++) {
            if (recv.get(i) != expected[i]) {
                failures.add(l.name() + " round " + round + " direct INT: element " + i + " is " + recv.get(i)
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
