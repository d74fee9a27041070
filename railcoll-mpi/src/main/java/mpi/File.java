package mpi;

/**
 * An MPI-IO file (MPI_File). railcoll-mpi has no MPI-IO (decision 0117): the constructors are
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} errors, so no file is opened; the bindings' read/write/view methods are not
 * declared (docs/mpi.md).
 */
public final class File {
    /** MPI_File_open: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        throw Unsupported.of("File(comm, filename, amode)", Unsupported.IO);
    }

    /** MPI_File_open with hints: {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        throw Unsupported.of("File(comm, filename, amode, info)", Unsupported.IO);
    }

    /** Unreachable (no file can be opened): {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
    public void close() throws MPIException {
        throw Unsupported.of("File.close", Unsupported.IO);
    }
}
