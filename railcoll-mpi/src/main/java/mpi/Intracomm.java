package mpi;

/**
 * An intra-communicator: {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}. Adds the prefix reductions {@code scan}
 * and {@code exScan}; the bindings' other additions (split, create, topologies) wait for railcoll-core's
 * sub-communicators (docs/mpi.md lists them).
 */
public class Intracomm extends Comm {
    Intracomm(String name, boolean predefined) {
        super(name, predefined);
    }

    /** Rank r's {@code recvbuf} gets {@code s0 op s1 op ... op sr} of the ranks' {@code count} elements, in rank order. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        elementwise("scan", sendbuf, recvbuf, count, type, op, prefix(op, count, false));
    }

    /** In place: {@code recvbuf} holds this rank's {@code count} elements and receives its prefix. */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        elementwise("scan", recvbuf, count, type, op, prefix(op, count, false));
    }

    /**
     * Rank r's {@code recvbuf} gets {@code s0 op ... op s(r-1)}; rank 0's {@code recvbuf} is left as it is (MPI leaves
     * it undefined).
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        elementwise("exScan", sendbuf, recvbuf, count, type, op, prefix(op, count, true));
    }

    /** In place: {@code buf} holds this rank's elements and receives its exclusive prefix; rank 0's is unchanged. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        elementwise("exScan", buf, count, type, op, prefix(op, count, true));
    }

    /** Inclusive or exclusive prefix, on the path allReduce takes; rank 0 of an exclusive one gets no result. */
    private static Elementwise prefix(Op op, int count, boolean exclusive) {
        return (c, plan, t, send, recv) -> {
            c.scan(plan, op, t, send, recv, count, exclusive);
            return !exclusive || c.rank > 0;
        };
    }
}
