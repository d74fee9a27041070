package mpi;

/**
 * The communicator a topology's neighbourhood collectives run on: a dup of the topology communicator, made together
 * with it (making a topology is collective, so every rank makes it at the same point, and a non-blocking
 * neighbourhood collective need not make it later: starting one waits for no other rank), freed with it. Its
 * messages never match the program's, on the topology communicator or elsewhere.
 */
final class NeighbourComm {
    private final Intracomm halo;

    private NeighbourComm(Intracomm halo) {
        this.halo = halo;
    }

    /** Makes the neighbourhood communicator of {@code owner} (collective on it); none for a null communicator. */
    static NeighbourComm of(Intracomm owner) throws MPIException {
        if (owner.isNull()) {
            return null;
        }
        Intracomm halo = owner.dupAs(n -> new Intracomm(n, false));
        halo.setName(owner.describe() + ".neighbours");
        return new NeighbourComm(halo);
    }

    /** The neighbourhood communicator {@code halo}, a duplication of the topology communicator made already. */
    static NeighbourComm over(Intracomm halo) {
        return new NeighbourComm(halo);
    }

    /** Its backend, for {@code call} on the topology communicator. */
    Backend backend(String call) throws MPIException {
        return halo.liveBackend(call);
    }

    void free() throws MPIException {
        if (!halo.isNull()) {
            halo.free();
        }
    }
}
