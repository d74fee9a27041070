package mpi;

import io.railcoll.CollectiveAbortedException;
import io.railcoll.OperatorFailedException;
import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A communicator: the ranks a collective runs among. {@code MPI.COMM_WORLD} is every rank of the job, over
 * railcoll's communicator; {@code MPI.COMM_SELF} is this rank alone; those derived from them ({@code dup},
 * {@code Intracomm.split} and the like) run over railcoll sub-communicators of their own (decision 0079). Collectives take the bindings' arguments
 * (buffer, count in datatype elements, datatype) and pack what is not contiguous bytes into native staging memory
 * around railcoll's call ({@link Transfer}); see docs/mpi.md for what is provided.
 *
 * <p>Errors go to this communicator's error handler (by default {@code MPI.ERRORS_ARE_FATAL}, which ends the job);
 * with {@code MPI.ERRORS_RETURN} they are thrown as {@link MPIException}s whose message names the call, the rank and
 * the counts. Threads: one thread at a time, unless {@code MPI.InitThread(args, MPI.THREAD_MULTIPLE)}, after which
 * calls from several threads run one after another.
 */
public class Comm implements Freeable, Cloneable {
    /** The split type of {@code Intracomm.splitType} for ranks sharing memory ({@code MPI_COMM_TYPE_SHARED}). */
    public static final int TYPE_SHARED = 0;

    private final ReentrantLock lock = new ReentrantLock(true);
    private final Staging staging = new Staging();
    private volatile Backend backend;
    /** The world ranks of the members, in rank order: what {@link #compare} and {@link #getGroup} answer from. */
    private volatile int[] members;
    private volatile Errhandler errhandler;
    private String name;
    private final boolean predefined;
    private volatile boolean freed;

    Comm(String name, boolean predefined) {
        this.name = name;
        this.predefined = predefined;
        this.errhandler = MPI.ERRORS_ARE_FATAL;
    }

    /** Binds this communicator to its collectives and members (at {@code MPI.Init}, or when it is derived). */
    void bind(Backend backend, int[] members) {
        this.members = members;
        this.backend = backend;
    }

    /** The backend, for {@code MPI.Finalize} to close. */
    Backend backendForFinalize() {
        return backend;
    }

    /** Unbinds it and releases its staging memory (at {@code MPI.Finalize}). */
    void unbind() {
        lock.lock();
        try {
            backend = null;
            staging.close();
        } finally {
            lock.unlock();
        }
    }

    // ---- queries, names, error handlers ----

    public final int getSize() throws MPIException {
        return live("getSize").size();
    }

    public final int getRank() throws MPIException {
        return live("getRank").rank();
    }

    public final boolean isNull() {
        return freed;
    }

    /** An inter-communicator? Never, in this version: every communicator here is an {@link Intracomm}. */
    public final boolean isInter() throws MPIException {
        live("isInter");
        return false;
    }

    /** {@code MPI.UNDEFINED}: no communicator here has a topology. */
    public final int getTopology() throws MPIException {
        live("getTopology");
        return MPI.UNDEFINED;
    }

    /**
     * Frees a derived communicator: closes its railcoll sub-communicator (which sends nothing, so ranks need not free
     * it together) and its staging memory; {@link #isNull()} is true after. Freeing {@code COMM_WORLD} or
     * {@code COMM_SELF} is an {@code MPI.ERR_COMM} error, as in MPI.
     */
    public void free() throws MPIException {
        Backend b = live("free");
        if (predefined) {
            throw raise("free", MPIException.of(MPI.ERR_COMM, "invalid communicator: " + name + " cannot be freed"));
        }
        lock.lock();
        try {
            freed = true;
            backend = null;
            staging.close();
            b.close();
        } catch (RuntimeException e) {
            throw raise("free", failed(MPI.ERR_OTHER, "free", b, e));
        } finally {
            lock.unlock();
        }
    }

    // ---- derived communicators, groups ----

    /** A new communicator of the same ranks in the same order (MPI_Comm_dup); collective. */
    public Comm dup() throws MPIException {
        return derive("dup", ".dup", c -> Optional.of(new Derived(c.backend.dup(), members)));
    }

    /** {@link #dup()}, an {@code MPIException} rethrown as a {@code RuntimeException}, as in the bindings. */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /**
     * {@code MPI.IDENT} for the same communicator, {@code MPI.CONGRUENT} for another of the same processes in the
     * same order, {@code MPI.SIMILAR} for the same processes in another order, else {@code MPI.UNEQUAL}. Local.
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        comm1.live("compare");
        comm2.live("compare");
        return comm1 == comm2 ? MPI.IDENT : Group.compareMembers(comm1.members, comm2.members, MPI.CONGRUENT);
    }

    /** A new group of this communicator's processes, in rank order, which the caller frees. */
    public final Group getGroup() throws MPIException {
        live("getGroup");
        return new Group(members.clone());
    }

    /** The backend and members of a communicator being derived. */
    record Derived(Backend backend, int[] members) {
    }

    /** How a derived communicator is made, as a collective on this one; empty where this rank gets none. */
    @FunctionalInterface
    interface Derivation {
        Optional<Derived> make(Call call) throws MPIException;
    }

    /**
     * Runs {@code how} as collective {@code call} and wraps what it made in a new {@link Intracomm}, named after this
     * one and {@code suffix}, with this one's error handler (as MPI says); a null communicator where this rank gets
     * none.
     */
    final Intracomm derive(String call, String suffix, Derivation how) throws MPIException {
        Intracomm[] made = new Intracomm[1];
        collective(call, c -> {
            Optional<Derived> d = how.make(c);
            Intracomm comm = new Intracomm(d.isPresent() ? name + suffix : "MPI_COMM_NULL", false);
            Comm base = comm;
            base.errhandler = errhandler;
            if (d.isPresent()) {
                comm.bind(d.get().backend(), d.get().members());
            } else {
                base.freed = true;
            }
            made[0] = comm;
        });
        return made[0];
    }

    /**
     * The world ranks of {@code b}'s members, in its rank order: an all-gather on the new communicator, which its
     * ranks enter together right after making it. Closes {@code b} if that fails.
     */
    static int[] worldRanksOf(Backend b) {
        return allGatherInts(b, MPI.worldRank());
    }

    /**
     * Every member's {@code mine} (the same number of ints on each), in {@code b}'s rank order, by one all-gather on
     * {@code b}, a communicator just made; closes {@code b} if that fails.
     */
    static int[] allGatherInts(Backend b, int... mine) {
        try {
            MemorySegment send = MemorySegment.ofArray(new byte[Integer.BYTES * mine.length]);
            MemorySegment.copy(mine, 0, send, ValueLayout.JAVA_INT_UNALIGNED, 0, mine.length);
            int[] all = new int[mine.length * b.size()];
            MemorySegment recv = MemorySegment.ofArray(new byte[Integer.BYTES * all.length]);
            b.allgather(send, recv);
            MemorySegment.copy(recv, ValueLayout.JAVA_INT_UNALIGNED, 0, all, 0, all.length);
            return all;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    public final void setName(String name) throws MPIException {
        live("setName");
        this.name = name;
    }

    public final String getName() throws MPIException {
        live("getName");
        return name;
    }

    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        live("setErrhandler");
        this.errhandler = java.util.Objects.requireNonNull(errhandler, "errhandler");
    }

    /** A new handle of the current handler, never {@code ==} to {@code MPI.ERRORS_RETURN} (as in the bindings). */
    public final Errhandler getErrhandler() throws MPIException {
        live("getErrhandler");
        return new Errhandler(errhandler.kind);
    }

    /** Hands error class {@code errorCode} to this communicator's handler, as if a call had failed with it. */
    public void callErrhandler(int errorCode) throws MPIException {
        throw raise("callErrhandler", MPIException.of(errorCode, "error raised by callErrhandler"));
    }

    /** Ends the whole job with exit status {@code errorcode}, as {@code MPI_Abort}. */
    public final void abort(int errorcode) throws MPIException {
        live("abort");
        System.err.println("railcoll-mpi: rank " + MPI.worldRank() + " called abort(" + errorcode + ") on " + name
                + "; ending the job");
        System.err.flush();
        System.out.flush();
        Runtime.getRuntime().halt(errorcode);
    }

    // ---- collectives ----

    public final void barrier() throws MPIException {
        collective("barrier", c -> c.backend.barrier());
    }

    /** {@code root}'s {@code count} elements of {@code buf} into every rank's {@code buf}. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("bcast", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment bytes = c.rank == root ? t.send(b, 0, count) : t.recvArea(b, count);
            c.backend.broadcast(bytes, root);
            if (c.rank != root) {
                t.deliver(bytes, b, 0, count);
            }
        });
    }

    /** Rank i's {@code sendcount} elements land as block i ({@code recvcount} elements) of the root's {@code recvbuf}. */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) throws MPIException {
        collective("gather", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            Transfer s = c.transfer(sendtype);
            MemorySegment send = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            if (c.rank != root) {
                c.backend.gather(send, null, root);
                return;
            }
            c.count(recvcount, "recvcount");
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            long all = (long) recvcount * c.size;
            UserBuffer out = r.buffer(recvbuf, all, "recvbuf");
            MemorySegment recv = r.recvArea(out, all);
            c.backend.gather(send, recv, root);
            r.deliver(recv, out, 0, all);
        });
    }

    /**
     * In place: on the root {@code buf} is the receive buffer of {@code size * count} elements whose own block already
     * sits at {@code root * count}; elsewhere {@code buf} is the send buffer of {@code count} elements.
     */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("gather", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            if (c.rank != root) {
                c.backend.gather(t.send(t.buffer(buf, count, "buf"), 0, count), null, root);
                return;
            }
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment own = t.sendCopy(b, (long) root * count, count);
            MemorySegment recv = t.recvArea(b, all);
            c.backend.gather(own, recv, root);
            t.deliver(recv, b, 0, all);
        });
    }

    /**
     * Rank i's {@code sendcount} elements land at element {@code displs[i]} of the root's {@code recvbuf},
     * {@code recvcount[i]} elements of {@code recvtype}; the receive arguments matter on the root only. Carried out as
     * an all-gather of every rank's block size and railcoll's gatherv (decision 0085).
     */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) throws MPIException {
        collective("gatherv", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            Transfer s = c.transfer(sendtype);
            MemorySegment own = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            if (c.rank != root) {
                c.gatherv(null, own, null, null, null, root);
                return;
            }
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            c.sameBytes(s, sendcount, r, recvcount[root]);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            c.gatherv(r, own, out, recvcount, displs, root);
        });
    }

    /** The root's in-place form: its own block already sits at {@code displs[root]} of {@code recvbuf}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        collective("gatherv", c -> {
            c.root(root);
            if (c.rank != root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: the in-place gatherv(recvbuf, recvcount, displs, recvtype, "
                        + root + ") is the root's form; the other ranks call gatherv(sendbuf, sendcount, sendtype, root)");
            }
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            c.gatherv(r, r.sendCopy(out, displs[root], recvcount[root]), out, recvcount, displs, root);
        });
    }

    /** The other ranks' form, with the root's in-place one: no receive arguments. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        collective("gatherv", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            if (c.rank == root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: gatherv(sendbuf, sendcount, sendtype, " + root
                        + ") is the other ranks' form; the root calls gatherv(recvbuf, recvcount, displs, recvtype, root)");
            }
            Transfer s = c.transfer(sendtype);
            c.gatherv(null, s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount), null, null, null, root);
        });
    }

    /** Every rank's {@code sendcount} elements land as block i of every rank's {@code recvbuf}. */
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) throws MPIException {
        collective("allGather", c -> {
            c.count(sendcount, "sendcount");
            c.count(recvcount, "recvcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            MemorySegment send = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            long all = (long) recvcount * c.size;
            UserBuffer out = r.buffer(recvbuf, all, "recvbuf");
            MemorySegment recv = r.recvArea(out, all);
            c.backend.allgather(send, recv);
            r.deliver(recv, out, 0, all);
        });
    }

    /** In place: {@code buf} holds {@code size * count} elements, this rank's block already at {@code rank * count}. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        collective("allGather", c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment own = t.sendCopy(b, (long) c.rank * count, count);
            MemorySegment recv = t.recvArea(b, all);
            c.backend.allgather(own, recv);
            t.deliver(recv, b, 0, all);
        });
    }

    /**
     * Rank i's {@code sendcount} elements land in block i of every rank's {@code recvbuf}, block i holding
     * {@code recvcount[i]} elements from element {@code displs[i]} (in extents of {@code recvtype}). Carried out as
     * railcoll's all-gatherv (decision 0085).
     */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        collective("allGatherv", c -> {
            c.count(sendcount, "sendcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            c.sameBytes(s, sendcount, r, recvcount[c.rank]);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            MemorySegment own = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            c.allgatherv(r, own, out, recvcount, displs);
        });
    }

    /** In place: this rank's block already sits at {@code displs[rank]} of {@code recvbuf}. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        collective("allGatherv", c -> {
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            MemorySegment own = r.sendCopy(out, displs[c.rank], recvcount[c.rank]);
            c.allgatherv(r, own, out, recvcount, displs);
        });
    }

    /** Block j ({@code sendcount} elements) of {@code sendbuf} goes to rank j, landing as block i of its {@code recvbuf}. */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        collective("allToAll", c -> {
            c.count(sendcount, "sendcount");
            c.count(recvcount, "recvcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            long sendAll = (long) sendcount * c.size;
            long recvAll = (long) recvcount * c.size;
            MemorySegment send = s.send(s.buffer(sendbuf, sendAll, "sendbuf"), 0, sendAll);
            UserBuffer out = r.buffer(recvbuf, recvAll, "recvbuf");
            MemorySegment recv = r.recvArea(out, recvAll);
            c.backend.alltoall(send, recv);
            r.deliver(recv, out, 0, recvAll);
        });
    }

    /**
     * {@code sendcount[j]} elements from element {@code sdispls[j]} of {@code sendbuf} go to rank j, landing at element
     * {@code rdispls[i]} of its {@code recvbuf} ({@code recvcount[i]} elements), i being the sender. Carried out as
     * railcoll's all-to-allv (decision 0085).
     */
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        collective("allToAllv", c -> {
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.vector(sendcount, sdispls);
            c.vector(recvcount, rdispls);
            c.sameBytes(s, sendcount[c.rank], r, recvcount[c.rank]);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, sdispls), "sendbuf");
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, rdispls), "recvbuf");
            c.alltoallv(s, in, sendcount, sdispls, r, out, recvcount, rdispls);
        });
    }

    /** {@code recvbuf} on every rank gets the element-wise {@code op} of every rank's {@code count} elements. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        elementwise("allReduce", sendbuf, recvbuf, count, type, op, (c, plan, t, send, recv) -> {
            c.allreduce(plan, op, t, send, recv, count);
            return true;
        });
    }

    /** In place: {@code buf} holds this rank's {@code count} elements and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        elementwise("allReduce", buf, count, type, op, (c, plan, t, send, recv) -> {
            c.allreduce(plan, op, t, send, recv, count);
            return true;
        });
    }

    /**
     * {@code root}'s {@code recvbuf} gets the element-wise {@code op} of every rank's {@code count} elements, in rank
     * order for a non-commutative op; {@code recvbuf} matters on the root only (null elsewhere is fine).
     */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        collective("reduce", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            if (c.rank != root) {
                c.reduce(plan, op, t, send, null, count, root);
                return;
            }
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            c.reduce(plan, op, t, send, recv, count, root);
            t.deliver(recv, out, 0, count);
        });
    }

    /**
     * In place: on the root {@code buf} holds its {@code count} elements and receives the result; elsewhere
     * {@code buf} is input only and is not modified.
     */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        collective("reduce", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            if (c.rank != root) {
                c.reduce(plan, op, t, data, null, count, root);
                return;
            }
            c.reduce(plan, op, t, data, data, count, root);
            t.deliver(data, b, 0, count);
        });
    }

    /**
     * {@code sendbuf} holds {@code size * recvcount} elements, block j for rank j; this rank's {@code recvbuf} gets
     * the {@code op} of every rank's block {@code rank} ({@code recvcount} elements).
     */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        collective("reduceScatterBlock", c -> {
            c.count(recvcount, "recvcount");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) recvcount * c.size;
            MemorySegment send = t.send(t.buffer(sendbuf, all, "sendbuf"), 0, all);
            UserBuffer out = t.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment recv = t.recvArea(out, recvcount);
            c.reduceScatterBlock(plan, op, t, send, recv, recvcount);
            t.deliver(recv, out, 0, recvcount);
        });
    }

    /** In place: {@code buf} holds {@code size * count} elements; this rank's result lands in its first {@code count}. */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        collective("reduceScatterBlock", c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment data = t.send(b, 0, all);
            MemorySegment recv = data.asSlice(0, t.bytes(count));
            c.reduceScatterBlock(plan, op, t, data, recv, count);
            t.deliver(recv, b, 0, count);
        });
    }

    /**
     * {@code sendbuf} holds the sum of {@code recvcounts} elements, rank j's block after the blocks of ranks
     * {@code 0..j-1}; this rank's {@code recvbuf} gets the {@code op} of every rank's block {@code rank}
     * ({@code recvcounts[rank]} elements). Equal counts run railcoll's reduce-scatter, uneven ones railcoll's
     * reduce-scatter with per-rank counts (decision 0085; the fold of an op without a railcoll type all-reduces the
     * whole vector, docs/mpi.md).
     */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        collective("reduceScatter", c -> {
            c.counts(recvcounts, "recvcounts");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = sum(recvcounts, c.size);
            MemorySegment send = t.send(t.buffer(sendbuf, all, "sendbuf"), 0, all);
            UserBuffer out = t.buffer(recvbuf, recvcounts[c.rank], "recvbuf");
            c.reduceScatter(plan, op, t, send, out, recvcounts);
        });
    }

    /** In place: {@code buf} holds the sum of {@code counts} elements; this rank's result lands in its first {@code counts[rank]}. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        collective("reduceScatter", c -> {
            c.counts(counts, "counts");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = sum(counts, c.size);
            UserBuffer b = t.buffer(buf, all, "buf");
            c.reduceScatter(plan, op, t, t.send(b, 0, all), b, counts);
        });
    }

    private static long sum(int[] counts, int size) {
        long all = 0;
        for (int i = 0; i < size; i++) {
            all += counts[i];
        }
        return all;
    }

    /**
     * Block i ({@code sendcount} elements from element {@code i * sendcount}) of the root's {@code sendbuf} lands in
     * rank i's {@code recvbuf} ({@code recvcount} elements); the send arguments matter on the root only.
     */
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) throws MPIException {
        collective("scatter", c -> {
            c.count(recvcount, "recvcount");
            c.root(root);
            Transfer r = c.transfer(recvtype);
            UserBuffer out = r.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment send = null;
            if (c.rank == root) {
                c.count(sendcount, "sendcount");
                Transfer s = c.transfer(sendtype);
                c.sameBytes(s, sendcount, r, recvcount);
                long all = (long) sendcount * c.size;
                send = s.send(s.buffer(sendbuf, all, "sendbuf"), 0, all);
            }
            MemorySegment recv = r.recvArea(out, recvcount);
            c.backend.scatter(send, recv, root);
            r.deliver(recv, out, 0, recvcount);
        });
    }

    /**
     * In place: on the root {@code buf} is the send buffer of {@code size * count} elements, its own block staying
     * where it is; elsewhere {@code buf} is the receive buffer of {@code count} elements.
     */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        collective("scatter", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            if (c.rank == root) {
                long all = (long) count * c.size;
                c.backend.scatter(t.send(t.buffer(buf, all, "buf"), 0, all), null, root);
                return;
            }
            UserBuffer out = t.buffer(buf, count, "buf");
            MemorySegment recv = t.recvArea(out, count);
            c.backend.scatter(null, recv, root);
            t.deliver(recv, out, 0, count);
        });
    }

    /**
     * Block i ({@code sendcount[i]} elements from element {@code displs[i]}) of the root's {@code sendbuf} lands in
     * rank i's {@code recvbuf} ({@code recvcount} elements of {@code recvtype}); the send arguments matter on the root
     * only. Carried out as a broadcast of the blocks' sizes and railcoll's scatterv (decision 0085).
     */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("scatterv", c -> {
            c.count(recvcount, "recvcount");
            c.root(root);
            Transfer r = c.transfer(recvtype);
            UserBuffer out = r.buffer(recvbuf, recvcount, "recvbuf");
            if (c.rank != root) {
                c.scatterv(null, null, null, null, r, out, recvcount, root);
                return;
            }
            Transfer s = c.transfer(sendtype);
            c.vector(sendcount, displs);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, displs), "sendbuf");
            c.scatterv(s, in, sendcount, displs, r, out, recvcount, root);
        });
    }

    /** The root's in-place form: its own block stays at {@code displs[root]} of {@code sendbuf}. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        collective("scatterv", c -> {
            c.root(root);
            if (c.rank != root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: the in-place scatterv(sendbuf, sendcount, displs, sendtype, "
                        + root + ") is the root's form; the other ranks call scatterv(recvbuf, recvcount, recvtype, root)");
            }
            Transfer s = c.transfer(sendtype);
            c.vector(sendcount, displs);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, displs), "sendbuf");
            c.scatterv(s, in, sendcount, displs, null, null, 0, root);
        });
    }

    /** The other ranks' form, with the root's in-place one: no send arguments. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        collective("scatterv", c -> {
            c.count(recvcount, "recvcount");
            c.root(root);
            if (c.rank == root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: scatterv(recvbuf, recvcount, recvtype, " + root
                        + ") is the other ranks' form; the root calls scatterv(sendbuf, sendcount, displs, sendtype, root)");
            }
            Transfer r = c.transfer(recvtype);
            c.scatterv(null, null, null, null, r, r.buffer(recvbuf, recvcount, "recvbuf"), recvcount, root);
        });
    }

    /** {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} for {@code count} elements, on this rank alone. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        // Local work on COMM_SELF's staging; its errors go to COMM_WORLD's handler, as calls tied to no communicator.
        MPI.COMM_SELF.collective("reduceLocal", MPI.COMM_WORLD, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment in = t.send(t.buffer(inBuf, count, "inBuf"), 0, count);
            UserBuffer b = t.buffer(inOutBuf, count, "inOutBuf");
            MemorySegment inOut = t.sendCopy(b, 0, count);
            Call.combine(plan, op, type, in, inOut, count);
            t.deliver(inOut, b, 0, count);
        });
    }

    // ---- plumbing ----

    /** One element-wise reduction on packed data ({@code send == recv} in place); false if {@code recv} got no result. */
    @FunctionalInterface
    interface Elementwise {
        boolean run(Call call, Reductions.Plan plan, Transfer t, MemorySegment send, MemorySegment recv) throws MPIException;
    }

    /**
     * An element-wise reduction ({@code allReduce}, {@code scan}, {@code exScan}) of {@code count} elements from
     * {@code sendbuf} into {@code recvbuf}, each packed or used as it is ({@link Transfer}).
     */
    final void elementwise(String name, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, Elementwise how)
            throws MPIException {
        collective(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            if (how.run(c, plan, t, send, recv)) {
                t.deliver(recv, out, 0, count);
            }
        });
    }

    /** In place: {@code buf} holds this rank's {@code count} elements and receives the result. */
    final void elementwise(String name, Object buf, int count, Datatype type, Op op, Elementwise how)
            throws MPIException {
        collective(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            if (how.run(c, plan, t, data, data)) {
                t.deliver(data, b, 0, count);
            }
        });
    }

    /** The body of a collective, run with the call's state. */
    @FunctionalInterface
    interface Body {
        void run(Call call) throws MPIException;
    }

    /**
     * Runs {@code body} as call {@code name}: after {@code MPI.check()} and under the call lock, with the staging
     * memory reset; an error it raises, or a railcoll failure, goes to the error handler.
     */
    final void collective(String name, Body body) throws MPIException {
        collective(name, this, body);
    }

    /** As {@link #collective(String, Body)}, its errors handled by {@code reportTo}'s error handler. */
    final void collective(String name, Comm reportTo, Body body) throws MPIException {
        Backend b = live(name);
        if (!lock.tryLock()) {
            if (!MPI.threadMultiple()) {
                throw reportTo.raise(name, MPIException.of(MPI.ERR_OTHER, name + " on rank " + b.rank() + " of " + this.name
                        + ": another thread is inside a call on this communicator; calls from several threads at once"
                        + " need MPI.InitThread(args, MPI.THREAD_MULTIPLE)"));
            }
            lock.lock();
        }
        try {
            if (lock.getHoldCount() == 1) {
                staging.reset(); // not in a call this thread is already inside (a user op calling MPI)
            }
            body.run(new Call(name, b, staging, this.name));
        } catch (MPIException e) {
            throw reportTo.raise(name, e);
        } catch (Op.UserFunctionFailure e) {
            throw reportTo.raise(name, (MPIException) e.getCause());
        } catch (OperatorFailedException e) {
            if (e.getCause() instanceof Op.UserFunctionFailure f) {
                throw reportTo.raise(name, (MPIException) f.getCause());
            }
            throw reportTo.raise(name, failed(MPI.ERR_OP, name, b, e));
        } catch (PeerLostException | CollectiveAbortedException e) {
            throw reportTo.raise(name, failed(MPI.ERR_PROC_ABORTED, name, b, e));
        } catch (RailcollException | IllegalStateException e) {
            throw reportTo.raise(name, failed(MPI.ERR_OTHER, name, b, e));
        } catch (IllegalArgumentException e) {
            throw reportTo.raise(name, failed(MPI.ERR_ARG, name, b, e));
        } finally {
            lock.unlock();
        }
    }

    private MPIException failed(int errorClass, String call, Backend b, RuntimeException e) {
        return MPIException.of(errorClass, call + " on rank " + b.rank() + " of " + name + " failed: " + e.getMessage(), e);
    }

    /** The backend after {@code MPI.check()}, or an {@code MPI.ERR_COMM} error on a freed communicator. */
    private Backend live(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw raise(call, MPIException.of(MPI.ERR_COMM, "invalid communicator: " + call + " on a freed communicator"));
        }
        return backend;
    }

    /** Hands {@code error} from {@code call} to the error handler; returns it to throw if the handler returns. */
    final MPIException raise(String call, MPIException error) {
        return errhandler.handle(this, call, error);
    }

    String describe() {
        return name;
    }
}
