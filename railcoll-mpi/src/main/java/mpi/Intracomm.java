package mpi;

/**
 * An intra-communicator: {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}. The bindings' additions (split, create,
 * scan, exScan, topologies) wait for railcoll-core's sub-communicators and scans (docs/mpi.md lists them).
 */
public class Intracomm extends Comm {
    Intracomm(String name, boolean predefined) {
        super(name, predefined);
    }
}
