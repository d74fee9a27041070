import mpi.*;

/**
 * An MPI error under the default handler, MPI.ERRORS_ARE_FATAL: the last rank passes a bad root, the job ends, no
 * exception reaches the program (on one rank too: that rank is the last).
 */
public class Fatal {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int last = MPI.COMM_WORLD.getSize() - 1;
        int[] data = new int[1];
        try {
            MPI.COMM_WORLD.bcast(data, 1, MPI.INT, rank == last ? 99 : 0);
        } catch (MPIException e) {
            System.out.println("rank " + rank + " caught " + e.getMessage());
        }
        System.out.println("rank " + rank + " went on");
        MPI.Finalize();
    }
}
