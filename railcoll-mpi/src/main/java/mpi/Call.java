package mpi;

import io.railcoll.reduce.Combiners;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.util.Objects;

/**
 * One collective call in progress on a {@link Comm}: its name, the rank and size, the argument checks every
 * collective shares (each failing with an {@link MPIException} that names the call, the rank, the communicator and
 * the offending values), and the steps that are more than one railcoll call (the padded blocks behind the
 * v-collectives, the fold behind a user reduction on an odd-sized datatype). Lives for one call, on its thread.
 *
 * <p>A communicator's blocking calls that are not nested in another call on it share one reusable {@code Call}
 * ({@link #reusable}, decision 0136), renamed at each call, which also remembers across calls the {@link Transfer}s of
 * the datatypes and the {@link UserBuffer} views of the buffers it was given. It may do so because nothing a blocking
 * call makes outlives the call. Non-blocking calls and nested ones get a call of their own ({@link #once}), which
 * remembers nothing: what they make lives on in their requests.
 */
final class Call {
    /** This call's name; the reusable call's is set at each call. */
    String name;
    final Backend backend;
    final int rank;
    final int size;
    /** Where the call packs; the reusable call's is set at each call (a non-blocking one's is its own). */
    Staging staging;
    private final Comm comm;
    /** The views of the program's buffers across calls; null on a call of its own. */
    final BufferViews views;
    /** The transfers of the datatypes of the last calls (reusable call only), round-robin over the slots. */
    private final Transfer[] transfers;
    private int nextTransfer;
    /**
     * The last call of each {@link DirectCall.Kind} of the reusable call that went straight to railcoll (decisions
     * 0209, 0212); weakly held, as the views, since they hold the buffers; null on a call of its own.
     */
    private final WeakReference<DirectCall>[] lastCalls;
    /** The reusable call's per-rank block sizes of {@link #allgatherv} (filled at each call; railcoll copies them). */
    private long[] blockSizes;
    /** The reusable call's per-rank byte displacements for an all-gatherv landing in the program's memory. */
    private long[] blockOffsets;

    private Call(String name, Backend backend, Staging staging, Comm comm, boolean reusable) {
        this.name = name;
        this.backend = backend;
        this.rank = backend.rank();
        this.size = backend.size();
        this.staging = staging;
        this.comm = comm;
        this.views = reusable ? new BufferViews() : null;
        this.transfers = reusable ? new Transfer[4] : null;
        @SuppressWarnings("unchecked")
        WeakReference<DirectCall>[] last = reusable ? new WeakReference[DirectCall.Kind.values().length] : null;
        this.lastCalls = last;
    }

    /** A call of its own, for one non-blocking or nested call. */
    static Call once(String name, Backend backend, Staging staging, Comm comm) {
        return new Call(name, backend, staging, comm, false);
    }

    /** The reusable call of {@code comm}'s blocking calls over {@code backend}, named at each call ({@link #named}). */
    static Call reusable(Backend backend, Staging staging, Comm comm) {
        return new Call("", backend, staging, comm, true);
    }

    /** This reusable call, as call {@code name} packing into {@code staging}. */
    Call named(String name, Staging staging) {
        this.name = name;
        this.staging = staging;
        return this;
    }

    /** An MPI error of this call: {@code MPI_ERR_X: bcast on rank 2 of MPI_COMM_WORLD: detail}. */
    MPIException error(int errorClass, String detail) {
        return MPIException.of(errorClass, name + " on rank " + rank + " of " + comm.describe() + ": " + detail);
    }

    void count(int count, String what) throws MPIException {
        if (count < 0) {
            throw error(MPI.ERR_COUNT, "invalid count: " + what + " is " + count);
        }
    }

    void root(int root) throws MPIException {
        if (root < 0 || root >= size) {
            throw error(MPI.ERR_ROOT, "invalid root: " + root + " (the communicator has size " + size + ")");
        }
    }

    /** The datatype as this call moves it; null is a {@link NullPointerException}, as in the bindings. */
    Transfer transfer(Datatype type) throws MPIException {
        Objects.requireNonNull(type, "datatype");
        type.usable(this);
        if (transfers == null) {
            return new Transfer(type, this);
        }
        for (Transfer t : transfers) {
            if (t != null && t.type == type) {
                return t;
            }
        }
        Transfer t = new Transfer(type, this);
        transfers[nextTransfer] = t;
        nextTransfer = (nextTransfer + 1) % transfers.length;
        return t;
    }

    /** Sender and receiver must describe the same bytes ({@code MPI_ERR_TRUNCATE} otherwise). */
    void sameBytes(Transfer send, long sendCount, Transfer recv, long recvCount) throws MPIException {
        if (send.bytes(sendCount) != recv.bytes(recvCount)) {
            throw error(MPI.ERR_TRUNCATE, "message truncated: " + sendCount + " elements of " + send.type.describe()
                    + " are " + send.bytes(sendCount) + " bytes but " + recvCount + " elements of " + recv.type.describe()
                    + " are " + recv.bytes(recvCount));
        }
    }

    /** The plan for a reduction by {@code op} on {@code type}; marks a user op as used. */
    Reductions.Plan plan(Op op, Datatype type) throws MPIException {
        usable(op);
        Reductions.Plan plan = type.plan(op, this);
        op.markUsed();
        return plan;
    }

    private void usable(Op op) throws MPIException {
        Objects.requireNonNull(op, "op");
        if (op.isFreed()) {
            throw error(MPI.ERR_OP, "invalid reduce operation: the op was freed");
        }
    }

    /**
     * The last call of {@code kind} that went straight to railcoll if this one has the same arguments (0 and null for
     * those this rank ignores, as when it was remembered), its datatypes checked usable again (the checks of the
     * arguments alone passed then and would pass now); else null. Decision 0212.
     */
    DirectCall repeatedMove(DirectCall.Kind kind, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int recvcount, Datatype recvtype, int root) throws MPIException {
        DirectCall d = last(kind);
        if (d == null || !d.is(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, null, root)) {
            return null;
        }
        stillUsable(d);
        return d;
    }

    /**
     * As {@link #repeatedMove}, for a reduction of {@code count} elements of {@code type} by {@code op}: the datatype
     * checked usable, the op not freed, and marked used, as the full path does.
     */
    DirectCall repeatedReduction(DirectCall.Kind kind, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                                 int root) throws MPIException {
        DirectCall d = last(kind);
        if (d == null || !d.is(sendbuf, count, type, recvbuf, count, type, op, root)) {
            return null;
        }
        type.usable(this);
        usable(op);
        op.markUsed();
        return d;
    }

    private void stillUsable(DirectCall d) throws MPIException {
        if (d.sendtype() != null) {
            d.sendtype().usable(this);
        }
        if (d.recvtype() != null && d.recvtype() != d.sendtype()) {
            d.recvtype().usable(this);
        }
    }

    /** Remembers a call of {@code kind} that railcoll ran on the program's own memory, {@code send} and {@code recv}. */
    void rememberMove(DirectCall.Kind kind, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                      int recvcount, Datatype recvtype, int root, MemorySegment send, MemorySegment recv) {
        DirectCall d = slot(kind);
        if (d != null) {
            d.set(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, null, root, send, recv, null, 0, null);
        }
    }

    /** As {@link #rememberMove}, for a reduction of {@code count} elements that railcoll ran by {@code plan}. */
    void rememberReduction(DirectCall.Kind kind, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                           int root, MemorySegment send, MemorySegment recv, Reductions.Plan plan) {
        DirectCall d = slot(kind);
        if (d != null) {
            d.set(sendbuf, count, type, recvbuf, count, type, op, root, send, recv, plan.elementType(),
                    plan.elements(count), plan.operator());
        }
    }

    private DirectCall last(DirectCall.Kind kind) {
        if (lastCalls == null) {
            return null;
        }
        WeakReference<DirectCall> ref = lastCalls[kind.ordinal()];
        return ref == null ? null : ref.get();
    }

    /**
     * The entry of {@code kind} to fill: the one kept, if it was not collected, else a new one (null on a call of its
     * own, which remembers nothing).
     */
    private DirectCall slot(DirectCall.Kind kind) {
        if (lastCalls == null) {
            return null;
        }
        DirectCall d = last(kind);
        if (d == null) {
            d = new DirectCall();
            lastCalls[kind.ordinal()] = new WeakReference<>(d);
        }
        return d;
    }

    /** All-reduce of {@code count} packed elements of {@code type} from {@code send} into {@code recv}. */
    void allreduce(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count) {
        if (plan.elementType() != null) {
            backend.allreduce(send, recv, plan.elementType(), plan.elements(count), plan.operator());
            return;
        }
        // A user op on a datatype whose packed element has no railcoll type of its size (decision 0076): every
        // contribution to every rank, then the fold in rank order here, the same order on every rank.
        long bytes = t.bytes(count);
        MemorySegment all = staging.take(bytes * size);
        backend.allgather(send.asSlice(0, bytes), all);
        foldInRankOrder(op, t, all, size, recv, count);
    }

    /**
     * Reduce of {@code count} packed elements to {@code root}'s {@code recv} (null elsewhere; {@code send == recv}
     * on the root in place). The fold (decision 0076): every contribution to the root, which folds them.
     */
    void reduce(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count, int root) {
        if (plan.elementType() != null) {
            backend.reduce(send, recv, plan.elementType(), plan.elements(count), plan.operator(), root);
            return;
        }
        long bytes = t.bytes(count);
        MemorySegment all = rank == root ? staging.take(bytes * size) : null;
        backend.gather(send.asSlice(0, bytes), all, root);
        if (rank == root) {
            foldInRankOrder(op, t, all, size, recv, count);
        }
    }

    /**
     * Reduce-scatter of equal blocks: {@code send} holds {@code size * count} packed elements, {@code recv} (which may
     * be the start of {@code send}) gets this rank's {@code count}. The fold: every rank's block j to rank j (an
     * all-to-all), which folds them.
     */
    void reduceScatterBlock(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count) {
        if (plan.elementType() != null) {
            backend.reduceScatterBlock(send, recv, plan.elementType(), plan.elements(count), plan.operator());
            return;
        }
        long bytes = t.bytes(count);
        MemorySegment mine = staging.take(bytes * size);
        backend.alltoall(send.asSlice(0, bytes * size), mine);
        foldInRankOrder(op, t, mine, size, recv, count);
    }

    /**
     * {@code reduceScatter}: {@code send} holds the packed blocks of {@code counts} back to back; this rank's block
     * goes to {@code out} (which may be the buffer {@code send} was taken from: in place). Uneven counts are
     * railcoll-core's reduce-scatter with per-rank counts (decision 0085), except for the fold below. Equal counts are railcoll's
     * reduce-scatter. Uneven ones have no railcoll collective: the whole vector is all-reduced into staging and each
     * rank keeps its block, correct for any counts and op (in rank order where railcoll's all-reduce is), at the cost
     * of an all-reduce of the whole vector (decision 0078).
     */
    void reduceScatter(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, UserBuffer out, int[] counts) {
        long mine = counts[rank];
        boolean equal = true;
        long before = 0;
        long all = 0;
        for (int i = 0; i < size; i++) {
            equal &= counts[i] == counts[0];
            before += i < rank ? counts[i] : 0;
            all += counts[i];
        }
        if (equal) {
            MemorySegment recv = t.recvArea(out, mine);
            reduceScatterBlock(plan, op, t, send, recv, mine);
            t.deliver(recv, out, 0, mine);
            return;
        }
        if (plan.elementType() != null) {
            // railcoll-core's reduce-scatter with per-rank counts (decision 0085).
            long[] elements = new long[size];
            for (int i = 0; i < size; i++) {
                elements[i] = plan.elements(counts[i]);
            }
            MemorySegment recv = t.recvArea(out, mine);
            backend.reduceScatter(send.asSlice(0, t.bytes(all)), recv, plan.elementType(), elements, plan.operator());
            t.deliver(recv, out, 0, mine);
            return;
        }
        // The fold (no railcoll element type for the op's datatype): the whole vector all-reduced, this rank's block kept.
        MemorySegment whole = staging.take(t.bytes(all));
        allreduce(plan, op, t, send, whole, all);
        t.deliver(whole.asSlice(t.bytes(before), t.bytes(mine)), out, 0, mine);
    }

    /**
     * Inclusive ({@code s0 op ... op s(rank)}) or exclusive ({@code ... op s(rank-1)}; rank 0's {@code recv} untouched)
     * prefix of {@code count} packed elements; {@code send == recv} in place. The fold: every contribution to every
     * rank, each folding the ranks below it.
     */
    void scan(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count,
              boolean exclusive) {
        if (plan.elementType() != null) {
            if (exclusive) {
                backend.exscan(send, recv, plan.elementType(), plan.elements(count), plan.operator());
            } else {
                backend.scan(send, recv, plan.elementType(), plan.elements(count), plan.operator());
            }
            return;
        }
        long bytes = t.bytes(count);
        MemorySegment all = staging.take(bytes * size);
        backend.allgather(send.asSlice(0, bytes), all);
        int ranks = exclusive ? rank : rank + 1;
        if (ranks > 0) {
            foldInRankOrder(op, t, all, ranks, recv, count);
        }
    }

    /**
     * {@code into = x0 op (x1 op (... op x(n-1)))} of the first {@code n} contributions in {@code all} (each
     * {@code count} packed elements, back to back): the rank order a non-commutative op needs, {@code in} always the
     * lower ranks' side.
     */
    static void foldInRankOrder(Op op, Transfer t, MemorySegment all, int n, MemorySegment into, long count) {
        long bytes = t.bytes(count);
        MemorySegment.copy(all, (n - 1) * bytes, into, 0, bytes);
        for (int r = n - 2; r >= 0; r--) {
            op.invoke(all, r * bytes, into, 0, count, t.type);
        }
    }

    /** {@code inOut = in op inOut} on this rank ({@code reduceLocal}). */
    static void combine(Reductions.Plan plan, Op op, Datatype type, MemorySegment in, MemorySegment inOut, long count) {
        if (plan.elementType() != null) {
            Combiners.of(plan.elementType(), plan.operator()).combine(in, 0, inOut, 0, plan.elements(count));
        } else {
            op.invoke(in, 0, inOut, 0, count, type);
        }
    }

    /** Counts and displacements of a v-collective: one each per rank, none negative. */
    void vector(int[] counts, int[] displs) throws MPIException {
        Objects.requireNonNull(counts, "counts");
        Objects.requireNonNull(displs, "displs");
        if (counts.length < size || displs.length < size) {
            throw error(MPI.ERR_ARG, "invalid argument: " + counts.length + " counts and " + displs.length
                    + " displacements for " + size + " ranks");
        }
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0 || displs[i] < 0) {
                throw error(MPI.ERR_COUNT, "invalid count: rank " + i + "'s count is " + counts[i]
                        + " and displacement " + displs[i]);
            }
        }
    }

    /** Per-rank counts ({@code reduceScatter}'s): one per rank, none negative. */
    void counts(int[] counts, String what) throws MPIException {
        Objects.requireNonNull(counts, what);
        if (counts.length < size) {
            throw error(MPI.ERR_ARG, "invalid argument: " + counts.length + " " + what + " for " + size + " ranks");
        }
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw error(MPI.ERR_COUNT, "invalid count: rank " + i + "'s count in " + what + " is " + counts[i]);
            }
        }
    }

    /** The elements a v-collective's buffer spans: the end of its furthest block. */
    long vectorSpan(int[] counts, int[] displs) {
        long end = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] > 0) {
                end = Math.max(end, (long) displs[i] + counts[i]);
            }
        }
        return end;
    }

    /**
     * {@code gatherv}: every rank's block size in bytes is all-gathered (one long each: railcoll-core's gatherv takes
     * every count on every rank, decision 0085), railcoll gathers the blocks packed to the root, and the root puts
     * block i at element {@code displs[i]} of {@code out}. A block larger than the root's receive count is
     * {@code MPI_ERR_TRUNCATE} on the root, raised after the gather so that every rank has left the collective. On the
     * other ranks {@code r}, {@code out}, {@code counts} and {@code displs} are null.
     */
    void gatherv(Transfer r, MemorySegment own, UserBuffer out, int[] counts, int[] displs, int root) throws MPIException {
        long[] sizes = blockSizes(own.byteSize());
        long total = 0;
        for (long b : sizes) {
            total += b;
        }
        MemorySegment all = rank == root ? staging.take(total) : null;
        backend.gatherv(own, all, sizes, root);
        if (rank != root) {
            return;
        }
        long at = 0;
        for (int i = 0; i < size; i++) {
            if (sizes[i] > r.bytes(counts[i])) {
                throw error(MPI.ERR_TRUNCATE, "message truncated: rank " + i + " sends " + sizes[i] + " bytes but the"
                        + " root receives " + counts[i] + " elements of " + r.type.describe() + " from it");
            }
            long unit = r.bytes(1);
            r.deliver(all.asSlice(at, sizes[i]), out, displs[i], unit == 0 ? counts[i] : sizes[i] / unit);
            at += sizes[i];
        }
    }

    /** Every rank's {@code mine}, all-gathered: one long per rank. */
    private long[] blockSizes(long mine) {
        MemorySegment one = staging.take(8L * (size + 1));
        one.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8L * size, mine);
        backend.allgather(one.asSlice(8L * size, 8), one.asSlice(0, 8L * size));
        long[] sizes = new long[size];
        for (int i = 0; i < size; i++) {
            sizes[i] = one.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i);
        }
        return sizes;
    }

    /**
     * {@code scatterv}: the root tells every rank every block's size in bytes (a broadcast of {@code size} longs:
     * railcoll-core's scatterv takes every count on every rank, decision 0085), packs block i (elements
     * {@code displs[i]} on of {@code in}) into staging, and railcoll scatters the packed blocks; each rank then
     * delivers its block's {@code recvCount} elements to {@code out}. On the other ranks {@code s}, {@code in},
     * {@code counts} and {@code displs} are null; on the root {@code out} is null in place (its own block stays in
     * {@code in}). A block whose bytes differ from what its rank receives is {@code MPI_ERR_TRUNCATE} on that rank,
     * raised after the scatter so that every rank has left the collective.
     */
    void scatterv(Transfer s, UserBuffer in, int[] counts, int[] displs, Transfer r, UserBuffer out, long recvCount,
                  int root) throws MPIException {
        MemorySegment sizeList = staging.take(8L * size);
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                sizeList.setAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i, s.bytes(counts[i]));
            }
        }
        backend.broadcast(sizeList, root);
        long[] sizes = new long[size];
        long total = 0;
        for (int i = 0; i < size; i++) {
            sizes[i] = sizeList.getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, i);
            total += sizes[i];
        }
        MemorySegment packed = null;
        MemorySegment mine = out == null ? null : staging.take(sizes[rank]);
        if (rank == root) {
            packed = staging.take(total);
            long at = 0;
            for (int i = 0; i < size; i++) {
                s.packTo(in, displs[i], counts[i], packed.asSlice(at, sizes[i]));
                at += sizes[i];
            }
        }
        backend.scatterv(packed, sizes, mine, root);
        if (out == null) {
            return;
        }
        if (sizes[rank] != r.bytes(recvCount)) {
            throw error(MPI.ERR_TRUNCATE, "message truncated: the root sends this rank " + sizes[rank] + " bytes but "
                    + recvCount + " elements of " + r.type.describe() + " are " + r.bytes(recvCount));
        }
        r.deliver(mine, out, 0, recvCount);
    }

    /**
     * {@code allToAllv}: this rank's blocks packed into staging, railcoll-core's all-to-allv with per-pair counts
     * (which all-gathers every rank's send counts and fails every rank on a disagreement, decision 0085), and block i
     * delivered to element {@code rdispls[i]} of {@code out}.
     */
    void alltoallv(Transfer s, UserBuffer in, int[] sendCounts, int[] sdispls, Transfer r, UserBuffer out,
                   int[] recvCounts, int[] rdispls) {
        PackedBlocks p = packBlocks(s, in, sendCounts, sdispls, r, recvCounts);
        backend.alltoallv(p.send(), p.sendBytes(), p.recv(), p.recvBytes());
        deliverBlocks(r, p.recv(), p.recvBytes(), out, recvCounts, rdispls);
    }

    /** An all-to-allv's blocks packed in staging, its byte counts, and where its received blocks land packed. */
    private record PackedBlocks(MemorySegment send, long[] sendBytes, MemorySegment recv, long[] recvBytes) {
    }

    /** Packs block j ({@code sendCounts[j]} elements from element {@code sdispls[j]} of {@code in}) for rank j. */
    private PackedBlocks packBlocks(Transfer s, UserBuffer in, int[] sendCounts, int[] sdispls, Transfer r,
                                    int[] recvCounts) {
        long[] sendBytes = new long[size];
        long[] recvBytes = new long[size];
        long sendAll = 0;
        long recvAll = 0;
        for (int i = 0; i < size; i++) {
            sendBytes[i] = s.bytes(sendCounts[i]);
            recvBytes[i] = r.bytes(recvCounts[i]);
            sendAll += sendBytes[i];
            recvAll += recvBytes[i];
        }
        MemorySegment send = sendAll == 0 ? NOTHING : staging.take(sendAll);
        long at = 0;
        for (int j = 0; j < size; j++) {
            s.packTo(in, sdispls[j], sendCounts[j], send.asSlice(at, sendBytes[j]));
            at += sendBytes[j];
        }
        return new PackedBlocks(send, sendBytes, recvAll == 0 ? NOTHING : staging.take(recvAll), recvBytes);
    }

    /**
     * {@code allGatherv}: railcoll-core's all-gatherv of the packed blocks (every rank passes every count, as MPI
     * has it; a disagreement fails every rank, decision 0085); block i then goes to element {@code displs[i]} of
     * {@code out}.
     */
    /** {@code own} null: in place, this rank's block already at its displacement in {@code out} (lands in place only). */
    void allgatherv(Transfer r, MemorySegment own, UserBuffer out, int[] counts, int[] displs) {
        long[] sizes = blockSizes(r, counts);
        if (r.landsInPlace(out)) {
            // Decision 0160: the blocks land at their displacements in the program's memory, with no staging copy
            // here (railcoll-core stages only where its transports cannot reach that memory or the blocks are out of
            // rank order).
            backend.allgatherv(own, out.memory, sizes, blockOffsets(r, counts, displs));
            return;
        }
        long total = 0;
        for (long s : sizes) {
            total += s;
        }
        MemorySegment all = staging.take(total);
        backend.allgatherv(own, all, sizes);
        long at = 0;
        for (int i = 0; i < size; i++) {
            r.deliverStaged(all, at, out, displs[i], counts[i]);
            at += sizes[i];
        }
    }

    /**
     * The per-rank block sizes in bytes of {@code counts}: in the reusable call's array (railcoll copies what it keeps,
     * so the next call may refill it); a call of its own allocates one.
     */
    private long[] blockSizes(Transfer r, int[] counts) {
        long[] sizes = blockSizes;
        if (sizes == null || views == null) {
            sizes = new long[size];
            if (views != null) {
                blockSizes = sizes;
            }
        }
        for (int i = 0; i < size; i++) {
            sizes[i] = r.bytes(counts[i]);
        }
        return sizes;
    }

    /** The per-rank byte displacements of {@code displs} (elements of {@code r}), kept as {@link #blockSizes}. */
    private long[] blockOffsets(Transfer r, int[] counts, int[] displs) {
        long[] offsets = blockOffsets;
        if (offsets == null || views == null) {
            offsets = new long[size];
            if (views != null) {
                blockOffsets = offsets;
            }
        }
        for (int i = 0; i < size; i++) {
            // a block of no elements may be displaced past the buffer's end, where no slice can start (bug 3)
            offsets[i] = counts[i] == 0 ? 0 : r.offsetOf(displs[i]);
        }
        return offsets;
    }

    // ---- non-blocking forms: what is started now, and what is left for when it finishes ----

    /**
     * Starts an all-reduce of {@code count} packed elements from {@code send} into {@code recv} ({@code send == recv}
     * in place), then {@code then} once it has finished. The fold (decision 0076) is a non-blocking all-gather, folded
     * in rank order when it finishes.
     */
    Comm.Started iallreduce(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count,
                            Operation.Finish then) {
        if (plan.elementType() != null) {
            return new Comm.Started(backend.iallreduce(send, recv, plan.elementType(), plan.elements(count),
                    plan.operator()), then);
        }
        long bytes = t.bytes(count);
        MemorySegment all = staging.take(bytes * size);
        return new Comm.Started(backend.iallgather(send.asSlice(0, bytes), all), () -> {
            foldInRankOrder(op, t, all, size, recv, count);
            then.run();
        });
    }

    /** {@link #iallreduce} delivering the result to {@code out}. */
    Comm.Started iallreduce(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count,
                            UserBuffer out) {
        return iallreduce(plan, op, t, send, recv, count, t.delivery(recv, out, 0, count));
    }

    /**
     * {@code iReduceScatter}: equal counts are railcoll's non-blocking reduce-scatter; uneven ones the non-blocking
     * all-reduce of the whole vector into staging, of which this rank's block goes to {@code out} when it finishes (as
     * {@link #reduceScatter}).
     */
    Comm.Started ireduceScatter(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, UserBuffer out,
                                int[] counts) {
        long before = 0;
        long all = 0;
        for (int i = 0; i < size; i++) {
            before += i < rank ? counts[i] : 0;
            all += counts[i];
        }
        long mine = counts[rank];
        boolean equal = true;
        for (int i = 0; i < size; i++) {
            equal &= counts[i] == counts[0];
        }
        if (equal) {
            MemorySegment recv = t.recvArea(out, mine);
            return ireduceScatterBlock(plan, op, t, send, recv, mine, () -> t.deliver(recv, out, 0, mine));
        }
        long skip = t.bytes(before);
        MemorySegment whole = staging.take(t.bytes(all));
        return iallreduce(plan, op, t, send, whole, all,
                () -> t.deliver(whole.asSlice(skip, t.bytes(mine)), out, 0, mine));
    }

    /** An empty buffer, for a side of an all-to-allv that has nothing to move (null would mean in place). */
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

    /**
     * {@code iAllToAllv}: this rank's blocks packed into the request's staging now, railcoll's non-blocking
     * all-to-allv (its count exchange and data chained in the engine, decision 0108), and block i delivered to element
     * {@code rdispls[i]} of {@code out} when it finishes.
     */
    Comm.Started ialltoallv(Transfer s, UserBuffer in, int[] sendCounts, int[] sdispls, Transfer r, UserBuffer out,
                            int[] recvCounts, int[] rdispls) {
        PackedBlocks p = packBlocks(s, in, sendCounts, sdispls, r, recvCounts);
        int[] counts = recvCounts.clone();
        int[] displs = rdispls.clone();
        return new Comm.Started(backend.ialltoallv(p.send(), p.sendBytes(), p.recv(), p.recvBytes()),
                () -> deliverBlocks(r, p.recv(), p.recvBytes(), out, counts, displs));
    }

    /**
     * {@code iGatherv}: an all-to-allv in which every rank sends its block to the root alone (decision 0109): its
     * count exchange tells the root what each rank sends, and a block whose size differs from the root's count for it
     * fails every rank as a count mismatch, without a blocking exchange of sizes first. On the other ranks {@code r},
     * {@code out}, {@code counts} and {@code displs} are null.
     */
    Comm.Started igatherv(Transfer r, MemorySegment own, UserBuffer out, int[] counts, int[] displs, int root) {
        long[] sendBytes = new long[size];
        long[] recvBytes = new long[size];
        sendBytes[root] = own.byteSize();
        if (rank != root) {
            return new Comm.Started(backend.ialltoallv(own, sendBytes, NOTHING, recvBytes));
        }
        long total = 0;
        for (int i = 0; i < size; i++) {
            recvBytes[i] = r.bytes(counts[i]);
            total += recvBytes[i];
        }
        MemorySegment all = total == 0 ? NOTHING : staging.take(total);
        int[] c = counts.clone();
        int[] d = displs.clone();
        return new Comm.Started(backend.ialltoallv(own, sendBytes, all, recvBytes),
                () -> deliverBlocks(r, all, recvBytes, out, c, d));
    }

    /**
     * {@code iScatterv}: an all-to-allv in which the root alone sends, block i to rank i (decision 0109); every rank
     * receives its {@code recvCount} elements from the root, a block of another size failing every rank as a count
     * mismatch. On the other ranks {@code s}, {@code in}, {@code counts} and {@code displs} are null; on the root
     * {@code out} is null in place (its own block stays in {@code in} and is not sent).
     */
    Comm.Started iscatterv(Transfer s, UserBuffer in, int[] counts, int[] displs, Transfer r, UserBuffer out,
                           long recvCount, int root) {
        long[] sendBytes = new long[size];
        long[] recvBytes = new long[size];
        MemorySegment send = NOTHING;
        if (rank == root) {
            long total = 0;
            for (int i = 0; i < size; i++) {
                sendBytes[i] = out == null && i == root ? 0 : s.bytes(counts[i]);
                total += sendBytes[i];
            }
            send = total == 0 ? NOTHING : staging.take(total);
            long at = 0;
            for (int i = 0; i < size; i++) {
                s.packTo(in, displs[i], sendBytes[i] == 0 ? 0 : counts[i], send.asSlice(at, sendBytes[i]));
                at += sendBytes[i];
            }
        }
        if (out == null) {
            return new Comm.Started(backend.ialltoallv(send, sendBytes, NOTHING, recvBytes));
        }
        recvBytes[root] = r.bytes(recvCount);
        MemorySegment mine = recvBytes[root] == 0 ? NOTHING : staging.take(recvBytes[root]);
        return new Comm.Started(backend.ialltoallv(send, sendBytes, mine, recvBytes),
                () -> r.deliver(mine, out, 0, recvCount));
    }

    /** Block i of the packed {@code all} ({@code sizes[i]} bytes) to element {@code displs[i]} of {@code out}. */
    private static void deliverBlocks(Transfer r, MemorySegment all, long[] sizes, UserBuffer out, int[] counts,
                                      int[] displs) {
        long at = 0;
        for (int i = 0; i < sizes.length; i++) {
            r.deliver(all.asSlice(at, sizes[i]), out, displs[i], counts[i]);
            at += sizes[i];
        }
    }

    /**
     * {@code iAllGatherv} into a buffer railcoll lands in as it is ({@link Transfer#landsInPlace}): railcoll-core's
     * non-blocking all-gatherv straight into the program's memory at the blocks' byte displacements (decision 0087);
     * nothing is left for the end. The arrays are the reusable call's: railcoll-core reads them only while starting.
     */
    Pending iallgathervInPlace(Transfer r, MemorySegment own, UserBuffer out, int[] counts, int[] displs) {
        return backend.iallgatherv(own, out.memory, blockSizes(r, counts), blockOffsets(r, counts, displs));
    }

    /**
     * {@code iAllGatherv} into any other buffer: railcoll-core's non-blocking all-gatherv of the packed blocks back to
     * back in staging, each put at its displacement when it finishes ({@code counts} and {@code displs} are the call's
     * own copies, read then). The same railcoll collective as {@link #iallgathervInPlace}: which one runs must not
     * depend on this rank's buffer or receive type, which other ranks do not share (decision 0216, bug 2).
     */
    Comm.Started iallgatherv(Transfer r, MemorySegment own, UserBuffer out, int[] counts, int[] displs) {
        long[] sizes = blockSizes(r, counts).clone();
        long[] offsets = new long[size];
        long total = 0;
        for (int i = 0; i < size; i++) {
            offsets[i] = total;
            total += sizes[i];
        }
        MemorySegment all = staging.take(total);
        return new Comm.Started(backend.iallgatherv(own, all, sizes, offsets), () -> {
            for (int i = 0; i < size; i++) {
                r.deliverStaged(all, offsets[i], out, displs[i], counts[i]);
            }
        });
    }

    /**
     * Starts a reduce to {@code root}'s {@code recv} (null elsewhere), then {@code then}. The fold: a non-blocking
     * gather, folded at the root when it finishes.
     */
    Comm.Started ireduce(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count,
                         int root, Operation.Finish then) {
        if (plan.elementType() != null) {
            return new Comm.Started(backend.ireduce(send, recv, plan.elementType(), plan.elements(count),
                    plan.operator(), root), then);
        }
        long bytes = t.bytes(count);
        MemorySegment all = rank == root ? staging.take(bytes * size) : null;
        return new Comm.Started(backend.igather(send.asSlice(0, bytes), all, root), () -> {
            if (rank == root) {
                foldInRankOrder(op, t, all, size, recv, count);
            }
            then.run();
        });
    }

    /** Starts a reduce-scatter of equal blocks, then {@code then}. The fold: a non-blocking all-to-all, then the fold. */
    Comm.Started ireduceScatterBlock(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv,
                                     long count, Operation.Finish then) {
        if (plan.elementType() != null) {
            return new Comm.Started(backend.ireduceScatterBlock(send, recv, plan.elementType(), plan.elements(count),
                    plan.operator()), then);
        }
        long bytes = t.bytes(count);
        MemorySegment mine = staging.take(bytes * size);
        return new Comm.Started(backend.ialltoall(send.asSlice(0, bytes * size), mine), () -> {
            foldInRankOrder(op, t, mine, size, recv, count);
            then.run();
        });
    }

    /**
     * Starts an inclusive or exclusive prefix, then {@code then} (not run on rank 0 of an exclusive one, whose
     * {@code recv} is left as it is). The fold: a non-blocking all-gather, each rank folding the ranks below it.
     */
    Comm.Started iscan(Reductions.Plan plan, Op op, Transfer t, MemorySegment send, MemorySegment recv, long count,
                       boolean exclusive, Operation.Finish then) {
        Operation.Finish deliver = exclusive && rank == 0 ? Operation.Finish.NOTHING : then;
        if (plan.elementType() != null) {
            Pending p = exclusive
                    ? backend.iexscan(send, recv, plan.elementType(), plan.elements(count), plan.operator())
                    : backend.iscan(send, recv, plan.elementType(), plan.elements(count), plan.operator());
            return new Comm.Started(p, deliver);
        }
        long bytes = t.bytes(count);
        MemorySegment all = staging.take(bytes * size);
        int ranks = exclusive ? rank : rank + 1;
        return new Comm.Started(backend.iallgather(send.asSlice(0, bytes), all), () -> {
            if (ranks > 0) {
                foldInRankOrder(op, t, all, ranks, recv, count);
            }
            deliver.run();
        });
    }
}
