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
 * ranks out; the neighbourhood collectives (blocking forms) on that grid, on a periodic pair and on a ring of one.
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
    void neighbourhoodCollectivesOnATwoByThreeGrid() throws Exception {
        List<Object> results = InProcessComms.onRanks(6, (comm, rank) -> {
            CartComm grid = comm.createCart(new int[] {2, 3}, new boolean[] {false, true}, false);
            int me = grid.getRank();
            int[] gathered = {-1, -1, -1, -1};
            grid.neighborAllGather(new int[] {me}, 1, MPI.INT, gathered, 1, MPI.INT);
            int[] send = new int[4];
            java.util.Arrays.setAll(send, i -> me * 10 + i);
            int[] exchanged = {-1, -1, -1, -1};
            grid.neighborAllToAll(send, 1, MPI.INT, exchanged, 1, MPI.INT);
            // v-forms: blocks placed in reverse order, two elements each, with a gap; direct buffers.
            java.nio.IntBuffer gv = MPI.newIntBuffer(12);
            for (int i = 0; i < 12; i++) {
                gv.put(i, -1);
            }
            grid.neighborAllGatherv(new int[] {me, -me}, 2, MPI.INT, gv, new int[] {2, 2, 2, 2},
                    new int[] {9, 6, 3, 0}, MPI.INT);
            long[] av = new long[4];
            java.util.Arrays.fill(av, -1);
            grid.neighborAllToAllv(new long[] {me * 10L, me * 10L + 1, me * 10L + 2, me * 10L + 3},
                    new int[] {1, 1, 1, 1}, new int[] {0, 1, 2, 3}, MPI.LONG, av, new int[] {1, 1, 1, 1},
                    new int[] {3, 2, 1, 0}, MPI.LONG);
            int[] gvOut = new int[12];
            gv.get(0, gvOut);
            grid.free();
            return java.util.Arrays.toString(gathered) + java.util.Arrays.toString(exchanged)
                    + java.util.Arrays.toString(gvOut) + java.util.Arrays.toString(av);
        });
        for (int r = 0; r < 6; r++) {
            int row = r / 3;
            int col = r % 3;
            int below0 = row == 0 ? -1 : r - 3; // dimension 0 is not periodic: PROC_NULL leaves the block
            int above0 = row == 1 ? -1 : r + 3;
            int below1 = row * 3 + (col + 2) % 3;
            int above1 = row * 3 + (col + 1) % 3;
            int[] n = {below0, above0, below1, above1};
            int[] gathered = n.clone();
            // Block 2d comes from the lower neighbour's block 2d+1, block 2d+1 from the upper one's block 2d.
            int[] exchanged = new int[4];
            int[] gv = new int[12];
            java.util.Arrays.fill(gv, -1);
            long[] av = new long[4];
            for (int i = 0; i < 4; i++) {
                int from = n[i];
                int theirBlock = i % 2 == 0 ? i + 1 : i - 1;
                exchanged[i] = from < 0 ? -1 : from * 10 + theirBlock;
                if (from >= 0) {
                    gv[9 - 3 * i] = from;
                    gv[10 - 3 * i] = -from;
                }
                av[3 - i] = from < 0 ? -1 : from * 10L + theirBlock;
            }
            assertEquals(java.util.Arrays.toString(gathered) + java.util.Arrays.toString(exchanged)
                    + java.util.Arrays.toString(gv) + java.util.Arrays.toString(av), results.get(r), "rank " + r);
        }
    }

    @Test
    void aPeriodicDimensionOfTwoGetsEachSideFromTheRightBlock() throws Exception {
        // Both neighbours are the same process: the tags keep "from below" and "from above" apart, as MPI defines.
        List<Object> results = InProcessComms.onRanks(2, (comm, rank) -> {
            CartComm pair = comm.createCart(new int[] {2}, new boolean[] {true}, false);
            int[] got = {-1, -1};
            pair.neighborAllToAll(new int[] {rank * 10, rank * 10 + 1}, 1, MPI.INT, got, 1, MPI.INT);
            pair.free();
            return java.util.Arrays.toString(got);
        });
        assertEquals(List.of("[11, 10]", "[1, 0]"), results);
        CartComm self = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {true}, false);
        int[] got = {-1, -1};
        self.neighborAllToAll(new int[] {5, 6}, 1, MPI.INT, got, 1, MPI.INT);
        assertArrayEquals(new int[] {6, 5}, got, "a ring of one: its upper block arrives below and the other way");
        MPIException e = assertThrows(MPIException.class, () -> self.neighborAllGatherv(new int[1], 1, MPI.INT,
                new int[2], new int[] {1}, new int[] {0, 1}, MPI.INT));
        assertEquals(MPI.ERR_ARG, e.getErrorClass());
        self.free();
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
