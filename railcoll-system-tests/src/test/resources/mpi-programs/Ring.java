import mpi.*;

/** Open MPI's examples/Ring.java: a value goes round the ring, decremented by rank 0, until it reaches 0. */
class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int tag = 50;
        int[] message = new int[1];
        int myrank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (myrank + 1) % size;
        int prev = (myrank + size - 1) % size;
        if (0 == myrank) {
            message[0] = 10;
            System.out.println("Process 0 sending " + message[0] + " to rank " + next + " (" + size
                    + " processes in ring)");
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
        }
        while (true) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
            if (0 == myrank) {
                --message[0];
                System.out.println("Process 0 decremented value: " + message[0]);
            }
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
            if (0 == message[0]) {
                System.out.println("Process " + myrank + " exiting");
                break;
            }
        }
        if (0 == myrank) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
        }
        MPI.Finalize();
    }
}
