package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reductions over a struct of mixed primitives {int@0, double@8, short@16} resized to a lower bound of -8 (so the
 * element's origin is not where its extent starts) with a user op that reads the struct's fields where the type puts
 * them (decision 0224); a predefined op on it is {@code MPI.ERR_OP} (no single predefined type under it, MPI 3.1
 * §5.9.2); a user op on a type whose data lies before the origin is refused up front (decision 0219), buffers
 * untouched.
 */
class StructReductionTest {
    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    private static final int EXTENT = 32; // lb -8, data in [0, 18), padding to 24

    /** Field-wise sum: the int at 0, the double at 8, the short at 16 of each element, elements EXTENT bytes apart. */
    private static final Op FIELD_SUM = new Op(new UserFunction() {
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            for (int e = 0; e < count; e++) {
                int o = e * EXTENT;
                inOut.putInt(o, in.getInt(o) + inOut.getInt(o));
                inOut.putDouble(o + 8, in.getDouble(o + 8) + inOut.getDouble(o + 8));
                inOut.putShort(o + 16, (short) (in.getShort(o + 16) + inOut.getShort(o + 16)));
            }
        }
    }, true);

    private static Datatype type() throws MPIException {
        Datatype s = Datatype.createStruct(new int[] {1, 1, 1}, new int[] {0, 8, 16},
                new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
        Datatype t = Datatype.createResized(s, -8, EXTENT);
        t.commit();
        return t;
    }

    /** Element e of rank r's input: (r + e, 10 r + e, 100 r + e) at the origin of a buffer of `count` elements. */
    private static ByteBuffer input(int r, int count) {
        ByteBuffer b = ByteBuffer.allocateDirect(count * EXTENT).order(ByteOrder.nativeOrder());
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) 0x5A); // gaps and padding: must stay
        }
        for (int e = 0; e < count; e++) {
            b.putInt(e * EXTENT, r + e).putDouble(e * EXTENT + 8, 10 * r + e).putShort(e * EXTENT + 16,
                    (short) (100 * r + e));
        }
        return b;
    }

    private static void expectSumOver(ByteBuffer b, int e, int at, int ranks, String what) {
        int ints = 0;
        double doubles = 0;
        int shorts = 0;
        for (int r = 0; r < ranks; r++) {
            ints += r + e;
            doubles += 10 * r + e;
            shorts += 100 * r + e;
        }
        int o = at * EXTENT;
        assertEquals(ints, b.getInt(o), what + " int of element " + at);
        assertEquals(doubles, b.getDouble(o + 8), what + " double of element " + at);
        assertEquals((short) shorts, b.getShort(o + 16), what + " short of element " + at);
        for (int i = 4; i < 8; i++) {
            assertEquals(0x5A, b.get(o + i), what + " gap byte " + i + " of element " + at);
        }
        for (int i = 18; i < EXTENT; i++) {
            assertEquals(0x5A, b.get(o + i), what + " padding byte " + i + " of element " + at);
        }
    }

    @Test
    void aUserOpCombinesAStructOfMixedPrimitivesInEveryReduction() throws Exception {
        int n = 3;
        InProcessComms.onRanks(n, (comm, rank) -> {
            Datatype t = type();
            int count = 3;
            ByteBuffer all = input(rank, count);
            comm.allReduce(input(rank, count), all, count, t, FIELD_SUM);
            for (int e = 0; e < count; e++) {
                expectSumOver(all, e, e, n, "allReduce");
            }
            ByteBuffer root = input(rank, count);
            comm.reduce(input(rank, count), root, count, t, FIELD_SUM, 1);
            if (rank == 1) {
                for (int e = 0; e < count; e++) {
                    expectSumOver(root, e, e, n, "reduce");
                }
            }
            ByteBuffer scan = input(rank, count);
            comm.scan(scan, count, t, FIELD_SUM);
            for (int e = 0; e < count; e++) {
                expectSumOver(scan, e, e, rank + 1, "scan in place");
            }
            int[] blocks = {1, 0, 2};
            ByteBuffer part = input(rank, 2);
            comm.reduceScatter(input(rank, 3), part, blocks, t, FIELD_SUM);
            int first = rank == 0 ? 0 : rank == 1 ? 1 : 1;
            for (int e = 0; e < blocks[rank]; e++) {
                expectSumOver(part, first + e, e, n, "reduceScatter");
            }
            Request r = comm.iAllReduce(input(rank, count), all, count, t, FIELD_SUM);
            r.waitFor();
            for (int e = 0; e < count; e++) {
                expectSumOver(all, e, e, n, "iAllReduce");
            }
            MPIException e = assertThrows(MPIException.class,
                    () -> comm.allReduce(input(rank, 1), input(rank, 1), 1, t, MPI.SUM));
            assertEquals(MPI.ERR_OP, e.getErrorClass());
            assertTrue(e.getMessage().contains("mix"), e.getMessage());
            return null;
        });
    }

    /** The refusal does not depend on the communicator's size: one rank reduces nothing but refuses alike. */
    @Test
    void aPredefinedOpOnAStructOfMixedPrimitivesIsRefusedOnOneRankToo() throws Exception {
        InProcessComms.onRanks(1, (comm, rank) -> {
            Datatype t = type();
            for (Op op : new Op[] {MPI.SUM, MPI.MAX, MPI.BAND}) {
                MPIException e = assertThrows(MPIException.class,
                        () -> comm.allReduce(input(rank, 2), input(rank, 2), 2, t, op), "allReduce");
                assertEquals(MPI.ERR_OP, e.getErrorClass());
                e = assertThrows(MPIException.class, () -> comm.reduce(input(rank, 2), input(rank, 2), 2, t, op, 0),
                        "reduce");
                assertEquals(MPI.ERR_OP, e.getErrorClass());
                e = assertThrows(MPIException.class, () -> comm.scan(input(rank, 2), input(rank, 2), 2, t, op),
                        "scan");
                assertEquals(MPI.ERR_OP, e.getErrorClass());
                e = assertThrows(MPIException.class, () -> comm.iAllReduce(input(rank, 2), input(rank, 2), 2, t, op),
                        "iAllReduce");
                assertEquals(MPI.ERR_OP, e.getErrorClass());
            }
            return null;
        });
    }

    @Test
    void aUserOpOnDataBeforeTheOriginIsRefusedUpFront() throws Exception {
        InProcessComms.onRanks(2, (comm, rank) -> {
            Datatype back = Datatype.createHIndexed(new int[] {1, 1}, new int[] {0, -8}, MPI.INT);
            back.commit();
            ByteBuffer in = input(rank, 1);
            ByteBuffer out = input(rank, 1);
            assertThrows(IndexOutOfBoundsException.class, () -> comm.allReduce(in, out, 1, back, FIELD_SUM));
            assertEquals(0x5A, out.get(4));
            assertEquals(rank, out.getInt(0));
            comm.barrier(); // still usable
            return null;
        });
    }
}
