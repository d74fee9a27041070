package mpi;

/**
 * An inter-communicator (two groups). railcoll-mpi makes none (decision 0117): {@code Comm.createIntercomm}, the
 * dynamic-process calls of {@link Intracomm} and the methods here are {@code MPI.ERR_UNSUPPORTED_OPERATION} errors,
 * except {@link #getParent()}, which is {@code MPI_COMM_NULL} as in MPI for a process that was not spawned.
 */
public final class Intercomm extends Comm {
    /** The only instance this version makes: the null parent of a process that was not spawned. */
    Intercomm() {
        super("MPI_COMM_NULL", false);
    }

    /** {@link #dup()}, an {@code MPIException} rethrown as a {@code RuntimeException}, as in the bindings. */
    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    @Override
    public Intercomm dup() throws MPIException {
        throw unsupported("dup");
    }

    @Override
    public Intercomm iDup() throws MPIException {
        throw unsupported("iDup");
    }

    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        throw unsupported("dupWithInfo");
    }

    /** MPI_Comm_remote_size: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public int getRemoteSize() throws MPIException {
        throw unsupported("getRemoteSize");
    }

    /** MPI_Comm_remote_group: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public Group getRemoteGroup() throws MPIException {
        throw unsupported("getRemoteGroup");
    }

    /** MPI_Intercomm_merge: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public Intracomm merge(boolean high) throws MPIException {
        throw unsupported("merge");
    }

    /**
     * MPI_Comm_get_parent: the inter-communicator to the job that spawned this one, which in railcoll-mpi (no spawn)
     * is never there: a new {@code Intercomm} whose {@code isNull()} is true, as MPI returns {@code MPI_COMM_NULL}.
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        Intercomm none = new Intercomm();
        none.markNull();
        return none;
    }

    private MPIException unsupported(String method) throws MPIException {
        MPI.check();
        return Unsupported.on(this, "Intercomm." + method, Unsupported.INTERCOMM);
    }
}
