package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A message that ends inside an element of the receive type writes that element's leading leaves (MPI 3.1 §3.2.4:
 * the locations of the received data, no more, no less; MPI_Get_elements counts them). Decision 0219: railcoll-mpi
 * delivered whole elements only, so the partial element's leaves kept their old contents, on every receive form of a
 * non-contiguous type or a heap buffer.
 */
class PartialElementReceiveTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    /** Room for 3 elements of 2 ints at a stride of 3 ints; 5 ints arrive: 2 elements and the first leaf of the third. */
    private static final int[] EXPECTED = {1, 2, -1, 3, 4, -1, 5, -1, -1};

    @Test
    void everyReceiveFormWritesTheLeavesOfAPartialElement() throws Exception {
        InProcessComms.onRanks(2, (comm, rank) -> {
            Datatype pairs = Datatype.createVector(1, 2, 3, MPI.INT);
            Datatype spaced = Datatype.createResized(pairs, 0, 12);
            spaced.commit();
            int forms = 4;
            if (rank == 0) {
                for (int f = 0; f < forms; f++) {
                    comm.send(new int[] {1, 2, 3, 4, 5}, 5, MPI.INT, 1, f);
                }
            } else {
                for (int f = 0; f < forms; f++) {
                    int[] heap = new int[9];
                    java.util.Arrays.fill(heap, -1);
                    IntBuffer direct = MPI.newIntBuffer(9);
                    for (int i = 0; i < 9; i++) {
                        direct.put(i, -1);
                    }
                    Status s = switch (f) {
                        case 0 -> comm.recv(heap, 3, spaced, 0, f);
                        case 1 -> comm.iRecv(direct, 3, spaced, 0, f).waitStatus();
                        case 2 -> comm.iRecv(MPI.slice(heap, 0), 3, spaced, 0, f).waitStatus();
                        default -> {
                            Prequest p = comm.recvInit(direct, 3, spaced, 0, f);
                            p.start();
                            Status got = p.waitStatus();
                            p.free();
                            yield got;
                        }
                    };
                    int[] got = heap;
                    if (f == 1 || f == 3) {
                        got = new int[9];
                        direct.get(0, got);
                    }
                    assertArrayEquals(EXPECTED, got, "form " + f);
                    assertEquals(MPI.UNDEFINED, s.getCount(spaced), "form " + f);
                    assertEquals(5, s.getElements(spaced), "form " + f);
                }
            }
            spaced.free();
            pairs.free();
            return null;
        });
    }
}
