package mpi;

/**
 * Initialises MPI once for every test class of this JVM: the tests run with no launcher, so {@code MPI.Init} makes a
 * job of one rank (singleton init) whose collectives are local copies; packing, datatypes, op mapping and errors
 * are what these tests check. Errors are returned, so that a test sees them instead of the JVM ending.
 */
final class Singleton {
    private Singleton() {
    }

    static synchronized void init() throws MPIException {
        if (!MPI.isInitialized()) {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        }
    }
}
