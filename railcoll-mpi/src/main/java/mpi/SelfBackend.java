package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * {@code COMM_SELF}: one rank, so every collective is a local copy (a reduction of one contribution is that
 * contribution). Arguments were checked by {@link Comm} (sizes, root 0).
 */
final class SelfBackend implements Backend {
    /** Messages to itself. */
    private final SelfMessages messages = new SelfMessages();

    @Override
    public Pending isend(MemorySegment data, int dest, int tag, boolean synchronous) {
        return messages.send(data, tag, synchronous);
    }

    @Override
    public Pending irecv(MemorySegment into, int source, int tag) {
        return messages.recv(into, tag);
    }

    @Override
    public Status iprobe(int source, int tag) {
        return messages.probe(tag);
    }

    @Override
    public Matched improbe(int source, int tag) {
        return messages.improbe(tag);
    }

    @Override
    public Matched mprobe(int source, int tag) {
        return found(messages.improbe(tag), "mProbe", tag);
    }

    @Override
    public Status probe(int source, int tag) {
        return found(messages.probe(tag), "probe", tag);
    }

    /** What a blocking probe found: on one rank, nothing found now is nothing ever. */
    private static <T> T found(T t, String call, int tag) {
        if (t == null) {
            throw new IllegalStateException(call + " for tag " + tag + " on a one-rank communicator where no such"
                    + " message was sent: it would wait forever");
        }
        return t;
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public void barrier() {
    }

    @Override
    public void broadcast(MemorySegment buffer, int root) {
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        copy(send, recv);
    }

    @Override
    public void allgather(MemorySegment send, MemorySegment recv) {
        copy(send, recv);
    }

    /** One rank: its block is already the whole result. */
    @Override
    public void allgatherInPlace(MemorySegment buffer, long blockBytes) {
    }

    @Override
    public void alltoall(MemorySegment send, MemorySegment recv) {
        copy(send, recv);
    }

    @Override
    public void allreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        MemorySegment.copy(send, 0, recv, 0, type.bytes(count));
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        copy(send.asSlice(0, type.bytes(count)), recv);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        copy(send.asSlice(0, type.bytes(count)), recv);
    }

    @Override
    public void scan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        copy(send.asSlice(0, type.bytes(count)), recv);
    }

    /** Rank 0 has no lower ranks: its {@code recv} is left as it is, as railcoll leaves it. */
    @Override
    public void exscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        if (recv != null) {
            copy(send, recv);
        }
    }

    // The non-blocking forms on one rank: the collective is the local copy, done when it starts.

    @Override
    public Pending ibarrier() {
        return Pending.DONE;
    }

    @Override
    public Pending ibroadcast(MemorySegment buffer, int root) {
        return Pending.DONE;
    }

    @Override
    public Pending igather(MemorySegment send, MemorySegment recv, int root) {
        gather(send, recv, root);
        return Pending.DONE;
    }

    @Override
    public Pending iallgather(MemorySegment send, MemorySegment recv) {
        allgather(send, recv);
        return Pending.DONE;
    }

    @Override
    public Pending iallgatherInPlace(MemorySegment buffer, long blockBytes) {
        return Pending.DONE;
    }

    @Override
    public Pending ialltoall(MemorySegment send, MemorySegment recv) {
        alltoall(send, recv);
        return Pending.DONE;
    }

    @Override
    public Pending iallreduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        allreduce(send, recv, type, count, op);
        return Pending.DONE;
    }

    @Override
    public Pending ireduce(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op, int root) {
        reduce(send, recv, type, count, op, root);
        return Pending.DONE;
    }

    @Override
    public Pending ireduceScatterBlock(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        reduceScatterBlock(send, recv, type, count, op);
        return Pending.DONE;
    }

    @Override
    public Pending iscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        scan(send, recv, type, count, op);
        return Pending.DONE;
    }

    @Override
    public Pending iexscan(MemorySegment send, MemorySegment recv, ElementType type, long count, Operator op) {
        return Pending.DONE;
    }

    @Override
    public Pending iscatter(MemorySegment send, MemorySegment recv, int root) {
        scatter(send, recv, root);
        return Pending.DONE;
    }

    @Override
    public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, int root) {
        MemorySegment.copy(send, 0, recv, 0, counts[0]);
    }

    @Override
    public void scatterv(MemorySegment send, long[] counts, MemorySegment recv, int root) {
        if (recv != null) {
            MemorySegment.copy(send, 0, recv, 0, counts[0]);
        }
    }

    @Override
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts) {
        MemorySegment.copy(send, 0, recv, 0, counts[0]);
    }

    @Override
    public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        if (send != null) { // null: in place, the block already where it belongs
            MemorySegment.copy(send, 0, recv, displs == null ? 0 : displs[0], counts[0]);
        }
    }

    @Override
    public Pending iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
        allgatherv(send, recv, counts, displs);
        return Pending.DONE;
    }

    @Override
    public void alltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts) {
        MemorySegment.copy(send, 0, recv, 0, sendCounts[0]);
    }

    @Override
    public Pending ialltoallv(MemorySegment send, long[] sendCounts, MemorySegment recv, long[] recvCounts) {
        if (sendCounts[0] != recvCounts[0]) {
            // What railcoll's count exchange finds on more ranks (decision 0085).
            throw new io.railcoll.MismatchException("count mismatch in alltoallv: rank 0 sends itself " + sendCounts[0]
                    + " bytes but expects " + recvCounts[0]);
        }
        alltoallv(send, sendCounts, recv, recvCounts);
        return Pending.DONE;
    }

    @Override
    public void reduceScatter(MemorySegment send, MemorySegment recv, ElementType type, long[] counts, Operator op) {
        MemorySegment.copy(send, 0, recv, 0, type.bytes(counts[0]));
    }

    private static void copy(MemorySegment send, MemorySegment recv) {
        if (send.address() != recv.address() || !send.heapBase().equals(recv.heapBase())) {
            MemorySegment.copy(send, 0, recv, 0, send.byteSize());
        }
    }

    /** Communicators of one rank are all alike: a new one holds nothing, so each derived one is a new local copy. */
    @Override
    public Optional<Backend> split(int color, int key) {
        return color < 0 ? Optional.empty() : Optional.of(new SelfBackend());
    }

    @Override
    public Backend dup() {
        return new SelfBackend();
    }

    /** Nothing to wait for: the new one-rank communicator holds nothing. */
    @Override
    public DupStart idup() {
        return new DupStart(Pending.DONE, SelfBackend::new);
    }

    @Override
    public Backend splitByNode() {
        return new SelfBackend();
    }

    /** {@code ranks} was checked by the caller: empty or {@code {0}}. */
    @Override
    public Optional<Backend> create(int[] ranks) {
        return ranks.length == 0 ? Optional.empty() : Optional.of(new SelfBackend());
    }

    /** The one rank's group: itself, as its {@code create} makes it. */
    @Override
    public Backend createGroup(int[] ranks, int tag) {
        return new SelfBackend();
    }

    @Override
    public void close() {
    }
}
