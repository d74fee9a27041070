package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bad topologies and bad neighbourhood calls on 3 ranks (nodes of 2 and 1) in this JVM fail with an
 * {@link MPIException} of the right class on every rank that takes part, never a hang: an edge to a node outside the
 * graph, a decreasing index, one rank's bad destination in {@code createDistGraph}, adjacent lists the two ends of an
 * edge disagree on, an asymmetric graph under a neighbourhood collective, counts of the wrong length, and counts the
 * ranks disagree on (fewer bytes than expected, more). And an i-form is really non-blocking: rank 0's request is
 * pending, and stays so, until rank 1, which waits for a message rank 0 sends only after starting it, starts its own.
 */
class TopologyErrorsTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void badTopologiesAndCallsFailOnEveryRank() throws Exception {
        List<Object> reports = InProcessComms.onNodes(new int[] {2, 1}, (comm, r) -> {
            List<String> got = new ArrayList<>();
            got.add(error(() -> comm.createGraph(new int[] {1, 2, 3}, new int[] {1, 7, 0}, false)));
            got.add(error(() -> comm.createGraph(new int[] {2, 1}, new int[] {1, 0}, false)));
            got.add(error(() -> comm.createGraph(new int[] {1, 1, 1, 1}, new int[] {0}, false)));
            int[] dests = r == 1 ? new int[] {9} : new int[] {(r + 1) % 3};
            got.add(error(() -> comm.createDistGraph(new int[] {r}, new int[] {1}, dests, MPI.INFO_NULL, false)));
            got.add(error(() -> comm.createDistGraph(new int[] {r}, new int[] {2}, new int[] {0}, MPI.INFO_NULL,
                    false)));
            // Rank 0 sends to 1, but rank 1 receives from nobody.
            int[] sources = new int[0];
            int[] to = r == 0 ? new int[] {1} : new int[0];
            got.add(error(() -> comm.createDistGraphAdjacent(sources, to, MPI.INFO_NULL, false)));
            GraphComm oneWay = comm.createGraph(new int[] {1, 1, 1}, new int[] {1}, false); // 0 -> 1, not back
            got.add(error(done(() -> oneWay.neighborAllGather(new int[1], 1, MPI.INT, new int[3], 1, MPI.INT))));
            got.add(error(() -> oneWay.iNeighborAllToAll(MPI.newIntBuffer(1), 1, MPI.INT, MPI.newIntBuffer(1), 1,
                    MPI.INT)));
            oneWay.free();
            CartComm ring = comm.createCart(new int[] {3}, new boolean[] {true}, false);
            got.add(error(done(() -> ring.neighborAllGatherv(new int[1], 1, MPI.INT, new int[2], new int[] {1, 1, 1},
                    new int[] {0, 1}, MPI.INT))));
            got.add(error(done(() -> ring.neighborAllToAllv(new int[2], new int[] {1, 1}, new int[] {0, 1}, MPI.INT,
                    new int[4], new int[] {2, 2}, new int[] {0, 2}, MPI.INT)))); // one element sent, two expected
            got.add(error(done(() -> ring.neighborAllToAllv(new int[4], new int[] {2, 2}, new int[] {0, 2}, MPI.INT,
                    new int[2], new int[] {1, 1}, new int[] {0, 1}, MPI.INT)))); // two sent, one expected
            ring.free();
            return got;
        });
        for (int r = 0; r < 3; r++) {
            @SuppressWarnings("unchecked")
            List<String> got = (List<String>) reports.get(r);
            List<String> want = List.of(
                    "ERR_RANK createGraph: edges[1] (a neighbour of node 1) is 7, outside the graph's nodes 0..2",
                    "ERR_ARG createGraph: index[1] is 1, below index[0] = 2",
                    "ERR_ARG createGraph: the graph has 4 nodes, more than the 3 ranks",
                    r == 1 ? "ERR_RANK destinations[0] is 9, outside 0..2"
                            : "ERR_RANK rank 1 passed invalid arguments (see its error)",
                    "ERR_ARG degrees add up to 2 edges but destinations has 1",
                    r == 1 ? "ERR_TOPOLOGY this rank lists rank 0 as a source 0 times but rank 0 lists it as a"
                            + " destination 1 times" : "ERR_TOPOLOGY rank 1 and rank 0 disagree on the edges",
                    "ERR_TOPOLOGY neighborAllGather on inproc.graph: its graph is not symmetric",
                    "ERR_TOPOLOGY iNeighborAllToAll on inproc.graph: its graph is not symmetric",
                    "ERR_ARG recvcount must have 2 entries, one per source of this process, not 3",
                    "ERR_COUNT (rank " + (r + 2) % 3 + ") sent 4 bytes where this rank expects 8",
                    "ERR_TRUNCATE");
            assertEquals(want.size(), got.size(), "rank " + r + ": " + got);
            for (int i = 0; i < want.size(); i++) {
                String[] parts = want.get(i).split(" ", 2);
                String g = got.get(i);
                boolean ok = g.startsWith("MPI_" + parts[0] + ":") && (parts.length == 1 || g.contains(parts[1]));
                assertEquals(true, ok, "rank " + r + " case " + i + ": want " + want.get(i) + ", got " + g);
            }
        }
    }

    @Test
    void anIFormReturnsBeforeItsNeighboursHaveStarted() throws Exception {
        List<Object> reports = InProcessComms.onRanks(2, (comm, r) -> {
            CartComm pair = comm.createCart(new int[] {2}, new boolean[] {false}, false);
            java.nio.IntBuffer got = MPI.newIntBuffer(2);
            got.put(0, -1).put(1, -1);
            java.nio.IntBuffer mine = MPI.newIntBuffer(1).put(0, 10 + r);
            String report;
            if (r == 0) {
                Request req = pair.iNeighborAllGather(mine, 1, MPI.INT, got, 1, MPI.INT);
                boolean early = req.test();
                pair.send(new int[] {1}, 1, MPI.INT, 1, 77); // only now may rank 1 start its own
                req.waitFor();
                report = "finished before the neighbour started: " + early;
            } else {
                pair.recv(new int[1], 1, MPI.INT, 0, 77);
                pair.iNeighborAllGather(mine, 1, MPI.INT, got, 1, MPI.INT).waitFor();
                report = "finished before the neighbour started: false";
            }
            int[] g = new int[2];
            got.get(0, g);
            pair.free();
            return report + " " + Arrays.toString(g);
        });
        assertEquals(List.of("finished before the neighbour started: false [-1, 11]",
                "finished before the neighbour started: false [10, -1]"), reports);
    }

    @FunctionalInterface
    private interface Blocking {
        void run() throws MPIException;
    }

    private static Failing done(Blocking call) {
        return () -> {
            call.run();
            return null;
        };
    }

    @FunctionalInterface
    private interface Failing {
        Object run() throws MPIException;
    }

    /** The message of what {@code call} threw (it starts with the error class's name); "no error" if it returned. */
    private static String error(Failing call) {
        try {
            Object made = call.run();
            if (made instanceof Comm c && !c.isNull()) {
                c.free();
            }
            return "no error";
        } catch (MPIException e) {
            return e.getMessage(); // "MPI_ERR_X: ..."
        }
    }
}
