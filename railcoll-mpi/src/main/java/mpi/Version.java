package mpi;

/** The MPI standard's version and subversion this API implements ({@code MPI.getVersion()}: 3.1, as Open MPI 5.0). */
public final class Version {
    private final int version;
    private final int subVersion;

    protected Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubVersion() {
        return subVersion;
    }
}
