package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code Intracomm.createGroup} (MPI_Comm_create_group) on 5 ranks over nodes of 1, 3 and 1 in this JVM: ranks 3, 0
 * and 4 make a communicator of theirs while ranks 2 and 1 make one of their own, each without the others calling;
 * the members are numbered in the group's order and reduce on it; a rank outside the group that calls gets a null
 * communicator at once; a group with a process outside the communicator is {@code MPI.ERR_GROUP}, a negative tag
 * {@code MPI.ERR_TAG}; afterwards the world's collectives and creations go on.
 */
class CreateGroupCommTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void membersAloneMakeTheirCommunicators() throws Exception {
        List<Object> reports = InProcessComms.onNodes(new int[] {1, 3, 1}, (comm, r) -> {
            Group world = comm.getGroup();
            int[] ranks = r == 1 || r == 2 ? new int[] {2, 1} : new int[] {3, 0, 4};
            Intracomm mine = comm.createGroup(world.incl(ranks), 5);
            int[] sum = new int[1];
            mine.allReduce(new int[] {1 << r}, sum, 1, MPI.INT, MPI.SUM);
            int[] order = new int[mine.getSize()];
            mine.allGather(new int[] {r}, 1, MPI.INT, order, 1, MPI.INT);
            StringBuilder out = new StringBuilder("rank " + mine.getRank() + " of " + Arrays.toString(order)
                    + " sum " + sum[0]);
            mine.free();
            if (r == 1) {
                out.append(" outsider null ").append(comm.createGroup(world.incl(new int[] {0, 3}), 9).isNull());
            }
            Group stranger = new Group(new int[] {0, 7});
            out.append(' ').append(code(() -> comm.createGroup(stranger, 1)));
            out.append(' ').append(code(() -> comm.createGroup(world.incl(new int[] {r}), -2)));
            int[] all = new int[1];
            comm.allReduce(new int[] {r}, all, 1, MPI.INT, MPI.SUM);
            Intracomm dup = comm.dup();
            out.append(" world ").append(all[0]).append(" dup ").append(dup.getSize());
            dup.free();
            return out.toString();
        });
        String errors = " MPI_ERR_GROUP MPI_ERR_TAG world 10 dup 5";
        assertEquals(List.of(
                "rank 1 of [3, 0, 4] sum 25" + errors,
                "rank 1 of [2, 1] sum 6 outsider null true" + errors,
                "rank 0 of [2, 1] sum 6" + errors,
                "rank 0 of [3, 0, 4] sum 25" + errors,
                "rank 2 of [3, 0, 4] sum 25" + errors), reports);
    }

    @FunctionalInterface
    private interface Making {
        Intracomm run() throws MPIException;
    }

    /** The name of the error class {@code call} failed with ("MPI_ERR_X"), or "made" if it did not fail. */
    private static String code(Making call) {
        try {
            call.run().free();
            return "made";
        } catch (MPIException e) {
            return e.getMessage().substring(0, e.getMessage().indexOf(':'));
        }
    }
}
