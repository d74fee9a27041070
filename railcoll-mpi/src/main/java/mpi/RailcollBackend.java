package mpi;

import io.railcoll.Communicator;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The collectives of {@code COMM_WORLD} and of the communicators derived from it: railcoll's communicator (the world
 * or one of its sub-communicators), its algorithms and selection, as they are.
 */
final class RailcollBackend implements Backend {
    private final Communicator comm;

    RailcollBackend(Communicator comm) {
        this.comm = comm;
    }

    /** railcoll's communicator, for what starts its own requests (point-to-point, tests). */
    Communicator communicator() {
        return comm;
    }

    @Override
    public int rank() {
        return comm.rank();
    }

    @Override
    public int size() {
        return comm.size();
    }

    @Override
    public void barrier() {
        comm.barrier();
    }

    @Override
    public void broadcast(MemorySegment buffer, int root) {
        comm.broadcast(buffer, root);
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        comm.gather(send, recv, root);
    }

    @Override
    public void allgather(MemorySegment send, MemorySegment recv) {
        comm.allgather(send, recv);
    }

    @Override
    public void allgatherInPlace(MemorySegment buffer, long blockBytes) {
        comm.allgather(buffer, blockBytes);
    }

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv) {
        comm.alltoall(send, recv);
    }

    @Override
    public void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        comm.allreduce(send, recv, type, count, op);
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        comm.reduce(send, recv, type, count, op, root);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        comm.reduceScatterBlock(send, recv, type, count, op);
    }

    @Override
    public void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        comm.scan(send, recv, type, count, op);
    }

    @Override
    public void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        comm.exscan(send, recv, type, count, op);
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        comm.scatter(send, recv, root);
    }

    @Override
    public Pending isend(MemorySegment data, int dest, int tag, boolean synchronous) {
        return new MessagePending(synchronous ? comm.issend(data, dest, tag) : comm.isend(data, dest, tag));
    }

    @Override
    public void send(MemorySegment data, int dest, int tag, boolean synchronous) {
        if (synchronous) {
            comm.ssend(data, dest, tag);
        } else {
            comm.send(data, dest, tag);
        }
    }

    @Override
    public Status recv(MemorySegment into, int source, int tag) {
        return MessagePending.status(comm.recv(into, source, tag));
    }

    @Override
    public Pending irecv(MemorySegment into, int source, int tag) {
        return new MessagePending(comm.irecv(into, source, tag));
    }

    @Override
    public Pending isend(MemorySegment data, int dest, int tag, boolean synchronous, MessagePending reuse) {
        return reuse.over(synchronous ? comm.issend(data, dest, tag) : comm.isend(data, dest, tag));
    }

    @Override
    public Pending irecv(MemorySegment into, int source, int tag, MessagePending reuse) {
        return reuse.over(comm.irecv(into, source, tag));
    }

    /**
     * railcoll-core's persistent request (decision 0088) and one adapter over it, made here once: each round is
     * {@link io.railcoll.MessageRequest#start()} (a standard send's and a receive's rounds restart one core operation).
     */
    @Override
    public Persistent sendInit(MemorySegment data, int dest, int tag, boolean synchronous) {
        return persistent(synchronous ? comm.ssendInit(data, dest, tag) : comm.sendInit(data, dest, tag));
    }

    @Override
    public Persistent recvInit(MemorySegment into, int source, int tag) {
        return persistent(comm.recvInit(into, source, tag));
    }

    private static Persistent persistent(io.railcoll.MessageRequest request) {
        MessagePending pending = new MessagePending(request);
        return () -> {
            request.start();
            return pending;
        };
    }

    @Override
    public Status iprobe(int source, int tag) {
        return comm.iprobe(source, tag).map(MessagePending::status).orElse(null);
    }

    @Override
    public Status probe(int source, int tag) {
        return MessagePending.status(comm.probe(source, tag));
    }

    @Override
    public Matched improbe(int source, int tag) {
        return comm.improbe(source, tag).map(RailcollBackend::matched).orElse(null);
    }

    @Override
    public Matched mprobe(int source, int tag) {
        return matched(comm.mprobe(source, tag));
    }

    private static Matched matched(io.railcoll.MatchedMessage m) {
        return new Matched() {
            @Override
            public Status status() {
                return MessagePending.status(m.status());
            }

            @Override
            public Pending irecv(MemorySegment into) {
                return new MessagePending(m.irecv(into));
            }
        };
    }

    @Override
    public Pending ibarrier() {
        return Pending.of(comm.ibarrier());
    }

    @Override
    public Pending ibroadcast(MemorySegment buffer, int root) {
        return Pending.of(comm.ibroadcast(buffer, root));
    }

    @Override
    public Pending igather(MemorySegment send, MemorySegment recv, int root) {
        return Pending.of(comm.igather(send, recv, root));
    }

    @Override
    public Pending iallgather(MemorySegment send, MemorySegment recv) {
        return Pending.of(comm.iallgather(send, recv));
    }

    @Override
    public Pending iallgatherInPlace(MemorySegment buffer, long blockBytes) {
        return Pending.of(comm.iallgather(buffer, blockBytes));
    }

    @Override
    public Pending ialltoall(MemorySegment send, MemorySegment recv) {
        return Pending.of(comm.ialltoall(send, recv));
    }

    @Override
    public Pending iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return Pending.of(comm.iallreduce(send, recv, type, count, op));
    }

    @Override
    public Pending ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        return Pending.of(comm.ireduce(send, recv, type, count, op, root));
    }

    @Override
    public Pending ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return Pending.of(comm.ireduceScatterBlock(send, recv, type, count, op));
    }

    @Override
    public Pending iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return Pending.of(comm.iscan(send, recv, type, count, op));
    }

    @Override
    public Pending iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return Pending.of(comm.iexscan(send, recv, type, count, op));
    }

    @Override
    public Pending iscatter(MemorySegment send, MemorySegment recv, int root) {
        return Pending.of(comm.iscatter(send, recv, root));
    }

    @Override
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, int root) {
        comm.gatherv(send, recv, counts, null, root);
    }

    @Override
    public void scatterv(MemorySegment send, long[] counts, MemorySegment recv, int root) {
        comm.scatterv(send, counts, null, recv, root);
    }

    @Override
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts) {
        comm.allgatherv(send, recv, counts, null);
    }

    @Override
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        comm.allgatherv(send, recv, counts, displs);
    }

    @Override
    public Pending iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        return Pending.of(comm.iallgatherv(send, recv, counts, displs));
    }

    @Override
    public void alltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts) {
        comm.alltoallv(send, sendCounts, null, recv, recvCounts, null);
    }

    @Override
    public Pending ialltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts) {
        return Pending.of(comm.ialltoallv(send, sendCounts, null, recv, recvCounts, null));
    }

    @Override
    public void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] counts, Operator op) {
        comm.reduceScatter(send, recv, type, counts, op);
    }

    @Override
    public Optional<Backend> split(int color, int key) {
        return comm.split(color, key).map(RailcollBackend::new);
    }

    @Override
    public Backend dup() {
        return new RailcollBackend(comm.dup());
    }

    @Override
    public DupStart idup() {
        io.railcoll.DupInFlight started = comm.idup();
        return new DupStart(Pending.of(started.request()), () -> new RailcollBackend(started.communicator()));
    }

    @Override
    public Backend splitByNode() {
        return new RailcollBackend(comm.splitByNode());
    }

    @Override
    public Optional<Backend> create(int[] ranks) {
        return comm.create(ranks).map(RailcollBackend::new);
    }

    @Override
    public Backend createGroup(int[] ranks, int tag) {
        return new RailcollBackend(comm.createGroup(ranks, tag));
    }

    @Override
    public void close() {
        comm.close();
    }
}
