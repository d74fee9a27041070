package mpi;

/** An object that holds resources until freed explicitly, as in Open MPI's bindings. */
public interface Freeable {
    void free() throws MPIException;
}
