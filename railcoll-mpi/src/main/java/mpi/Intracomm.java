package mpi;

import java.lang.foreign.MemorySegment;

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
        prefix("scan", sendbuf, recvbuf, count, type, op, false);
    }

    /** In place: {@code recvbuf} holds this rank's {@code count} elements and receives its prefix. */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        prefix("scan", recvbuf, count, type, op, false);
    }

    /**
     * Rank r's {@code recvbuf} gets {@code s0 op ... op s(r-1)}; rank 0's {@code recvbuf} is left as it is (MPI leaves
     * it undefined).
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        prefix("exScan", sendbuf, recvbuf, count, type, op, true);
    }

    /** In place: {@code buf} holds this rank's elements and receives its exclusive prefix; rank 0's is unchanged. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        prefix("exScan", buf, count, type, op, true);
    }

    private void prefix(String name, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean exclusive)
            throws MPIException {
        collective(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            c.scan(plan, op, t, send, recv, count, exclusive);
            if (!exclusive || c.rank > 0) {
                t.deliver(recv, out, 0, count);
            }
        });
    }

    private void prefix(String name, Object buf, int count, Datatype type, Op op, boolean exclusive)
            throws MPIException {
        collective(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            c.scan(plan, op, t, data, data, count, exclusive);
            if (!exclusive || c.rank > 0) {
                t.deliver(data, b, 0, count);
            }
        });
    }
}
