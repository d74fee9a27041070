import mpi.*;

/** An MPI error under the default handler, MPI.ERRORS_ARE_FATAL: the job ends, no exception reaches the program. */
public class Fatal {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] data = new int[1];
        try {
            MPI.COMM_WORLD.bcast(data, 1, MPI.INT, rank == 2 ? 99 : 0);
        } catch (MPIException e) {
            System.out.println("rank " + rank + " caught " + e.getMessage());
        }
        System.out.println("rank " + rank + " went on");
        MPI.Finalize();
    }
}
