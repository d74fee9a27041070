package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cartesian topologies: {@code createDims}' factorisations and errors, {@code createCart} and its queries on one rank,
 * and on six ranks in this JVM a 2x3 grid (periodic in its second dimension) whose {@code shift} neighbours are
 * checked by exchanging ranks with them, whose rows ({@code sub}) reduce on their own, and a 2x2 grid that leaves two
 * ranks out.
 */
class CartCommTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void createDimsFillsTheFreeDimensionsBalancedAndDescending() throws MPIException {
        assertDims(6, new int[] {0, 0}, new int[] {3, 2});
        assertDims(7, new int[] {0, 0}, new int[] {7, 1});
        assertDims(6, new int[] {0, 3, 0}, new int[] {2, 3, 1});
        assertDims(12, new int[] {0, 0}, new int[] {4, 3});
        assertDims(16, new int[] {0, 0, 0, 0}, new int[] {2, 2, 2, 2});
        assertDims(24, new int[] {0, 0, 0}, new int[] {4, 3, 2});
        assertDims(1, new int[] {0, 0, 0}, new int[] {1, 1, 1});
        assertDims(8, new int[] {2, 4}, new int[] {2, 4});
        for (int[] bad : new int[][] {{0, 3, 0}, {-1, 0}, {2, 2}}) {
            int[] dims = bad.clone();
            MPIException e = assertThrows(MPIException.class, () -> CartComm.createDims(7, dims));
            assertEquals(MPI.ERR_DIMS, e.getErrorClass());
            assertArrayEquals(bad, dims, "left as it was");
        }
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class, () -> CartComm.createDims(-1, new int[1]))
                .getErrorClass());
    }

    private static void assertDims(int nnodes, int[] dims, int[] expected) throws MPIException {
        CartComm.createDims(nnodes, dims);
        assertArrayEquals(expected, dims, "createDims(" + nnodes + ")");
    }

    @Test
    void aOneRankRingIsItsOwnNeighbour() throws MPIException {
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {true}, true);
        assertEquals(MPI.CART, ring.getTopology());
        CartParms p = ring.getTopo();
        assertEquals(1, p.getDimCount());
        assertEquals(1, p.getDim(0));
        assertTrue(p.getPeriod(0));
        assertEquals(0, p.getCoord(0));
        ShiftParms s = ring.shift(0, 5);
        assertEquals(0, s.getRankSource());
        assertEquals(0, s.getRankDest());
        assertEquals(0, ring.getRank(new int[] {-3}), "a periodic coordinate wraps");
        CartComm line = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {false}, false);
        assertEquals(MPI.PROC_NULL, line.shift(0, 1).getRankDest());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> line.getRank(new int[] {1})).getErrorClass());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> line.getCoords(1)).getErrorClass());
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class, () -> line.shift(1, 1)).getErrorClass());
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.createCart(new int[] {2}, new boolean[] {false}, false)).getErrorClass());
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.createCart(new int[] {0}, new boolean[] {false}, false)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[0], false)).getErrorClass());
        CartComm copy = ring.dup();
        assertEquals(MPI.CART, copy.getTopology());
        assertTrue(copy.getTopo().getPeriod(0), "dup keeps the topology");
        CartComm none = ring.sub(new boolean[] {false});
        assertEquals(0, none.getTopo().getDimCount());
        assertEquals(1, none.getSize());
        assertEquals(0, ring.map(new int[] {1}, new boolean[] {false}));
        for (Comm c : List.of(ring, line, copy, none)) {
            c.free();
        }
    }

    @Test
    void aTwoByThreeGridOnSixRanks() throws Exception {
        List<Object> results = InProcessComms.onRanks(6, (comm, rank) -> {
            CartComm grid = comm.createCart(new int[] {2, 3}, new boolean[] {false, true}, false);
            int[] c = grid.getCoords(grid.getRank());
            StringBuilder out = new StringBuilder(c[0] + "" + c[1]);
            // Exchange ranks along each dimension with the neighbours shift names: what arrives is who sent it.
            for (int dim = 0; dim < 2; dim++) {
                ShiftParms s = grid.shift(dim, 1);
                int[] got = {-9};
                grid.sendRecv(new int[] {grid.getRank()}, 1, MPI.INT, s.getRankDest(), dim, got, 1, MPI.INT,
                        s.getRankSource(), dim);
                out.append(' ').append(s.getRankSource()).append('>').append(s.getRankDest())
                        .append(':').append(s.getRankSource() == MPI.PROC_NULL ? "-" : String.valueOf(got[0]));
            }
            CartComm row = grid.sub(new boolean[] {false, true});
            int[] sum = new int[1];
            row.allReduce(new int[] {grid.getRank()}, sum, 1, MPI.INT, MPI.SUM);
            out.append(" row").append(row.getSize()).append('=').append(sum[0])
                    .append(" rowPeriodic=").append(row.getTopo().getPeriod(0));
            CartComm square = comm.createCart(new int[] {2, 2}, new boolean[] {false, false}, false);
            out.append(square.isNull() ? " out" : " in" + square.getRank());
            if (!square.isNull()) {
                square.barrier();
                square.free();
            }
            row.free();
            grid.free();
            return out.toString();
        });
        assertEquals(List.of(
                "00 -2>3:- 2>1:2 row3=3 rowPeriodic=true in0",
                "01 -2>4:- 0>2:0 row3=3 rowPeriodic=true in1",
                "02 -2>5:- 1>0:1 row3=3 rowPeriodic=true in2",
                "10 0>-2:0 5>4:5 row3=12 rowPeriodic=true in3",
                "11 1>-2:1 3>5:3 row3=12 rowPeriodic=true out",
                "12 2>-2:2 4>3:4 row3=12 rowPeriodic=true out"), results);
    }

    @Test
    void getRankAndGetCoordsAreInverseRowMajor() throws Exception {
        List<Object> results = InProcessComms.onRanks(6, (comm, rank) -> {
            CartComm grid = comm.createCart(new int[] {3, 2}, new boolean[] {true, false}, false);
            StringBuilder out = new StringBuilder();
            for (int r = 0; r < 6; r++) {
                int[] c = grid.getCoords(r);
                out.append(c[0]).append(c[1]).append(grid.getRank(c) == r ? "" : "!").append(' ');
            }
            out.append(grid.getRank(new int[] {4, 1})); // periodic first dimension: 4 wraps to 1
            grid.free();
            return out.toString();
        });
        for (Object r : results) {
            assertEquals("00 01 10 11 20 21 3", r);
        }
        assertFalse(results.isEmpty());
    }
}
