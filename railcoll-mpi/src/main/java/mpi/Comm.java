package mpi;

import io.railcoll.CollectiveAbortedException;
import io.railcoll.OperatorFailedException;
import io.railcoll.PeerLostException;
import io.railcoll.RailcollException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.util.Optional;

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

    private final CallLock lock = new CallLock();
    private final Staging staging = new Staging();
    /**
     * The stagings of finished non-blocking operations, for the next ones (decision 0150): taken and given back by
     * compare-and-set, no lock (decision 0087), as {@link #spareOperations}.
     */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Staging> spareStagings =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(4);
    /**
     * Operations of iSend/iRecv requests whose waits reported them, for the next ones (decision 0159): taken and
     * given back by compare-and-set, no lock; when all slots are empty a new one is made, when all are full one is
     * dropped.
     */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Operation> spareOperations =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(8);
    /** Persistent requests' operations freed in flight and not yet over ({@link #detach}). */
    private final java.util.concurrent.ConcurrentLinkedQueue<Operation> detached =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** The call state this communicator's blocking calls share ({@link Call#reusable}); used under {@link #lock}. */
    private Call reusable;
    private final Attributes attributes = new Attributes();
    private volatile Backend backend;
    /** The world ranks of the members, in rank order: what {@link #compare} and {@link #getGroup} answer from. */
    private volatile int[] members;
    private volatile Errhandler errhandler;
    private String name;
    private final boolean predefined;
    private volatile boolean freed;
    /** This rank's rank here, kept for the messages of errors that come after the backend is gone. */
    private volatile int rankHere = -1;
    /** The hints of {@link #setInfo} and {@link #dupWithInfo}, returned by {@link #getInfo}; railcoll reads none. */
    private final Info hints = new Info(false);
    /** The request of the {@code iDup} that made this communicator; null for every other. */
    private volatile Request dupRequest;
    /** True while the {@code iDup} that made this communicator has not finished: every call on it is an error. */
    private volatile boolean awaitingDup;

    Comm(String name, boolean predefined) {
        this.name = name;
        this.predefined = predefined;
        this.errhandler = MPI.ERRORS_ARE_FATAL;
    }

    /** Makes this a null communicator ({@code MPI_COMM_NULL}: {@link #isNull()} true, every call an error). */
    final void markNull() {
        freed = true;
    }

    /** Binds this communicator to its collectives and members (at {@code MPI.Init}, or when it is derived). */
    void bind(Backend backend, int[] members) {
        this.members = members;
        this.rankHere = backend.rank();
        this.backend = backend;
    }

    /** The backend of this live communicator for {@code call}, or the error a freed one gives (see {@link RailcollInterop}). */
    final Backend liveBackend(String call) throws MPIException {
        return live(call);
    }

    /** The backend, for {@code MPI.Finalize} to close. */
    Backend backendForFinalize() {
        return backend;
    }

    /** Unbinds it and releases its staging memory (at {@code MPI.Finalize}). */
    void unbind() {
        lock.enter();
        try {
            backend = null;
            reusable = null;
            staging.close();
            closeSpareStagings();
            detached.clear();
        } finally {
            lock.exit();
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

    /**
     * {@code MPI.CART} for a {@link CartComm}, {@code MPI.GRAPH} or {@code MPI.DIST_GRAPH} for a {@link GraphComm},
     * else {@code MPI.UNDEFINED}.
     */
    public final int getTopology() throws MPIException {
        live("getTopology");
        return topology();
    }

    /** Frees what a subclass made for itself (a topology's neighbourhood communicator), as this is freed. */
    void releasing() throws MPIException {
    }

    /** The topology kind, for {@link #getTopology()}: none unless a subclass has one. */
    int topology() {
        return MPI.UNDEFINED;
    }

    /**
     * Frees a derived communicator: closes its railcoll sub-communicator (which sends nothing, so ranks need not free
     * it together) and its staging memory; {@link #isNull()} is true after. Rounds of persistent requests freed while
     * in flight are waited for first (they complete normally, as MPI says of pending operations). Freeing
     * {@code COMM_WORLD} or {@code COMM_SELF} is an {@code MPI.ERR_COMM} error, as in MPI.
     */
    public final void free() throws MPIException {
        Backend b = live("free");
        if (predefined) {
            throw raise("free", MPIException.of(MPI.ERR_COMM, "invalid communicator: " + name + " cannot be freed"));
        }
        releasing();
        RuntimeException late = finishDetached();
        lock.enter();
        try {
            freed = true;
            backend = null;
            reusable = null;
            staging.close();
            closeSpareStagings();
            detached.clear();
            b.close();
        } catch (RuntimeException e) {
            throw raise("free", failed(MPI.ERR_OTHER, "free", e));
        } finally {
            lock.exit();
        }
        if (late != null) {
            throw raise("free", failed(MPI.ERR_OTHER, "free (a round of a persistent request freed while in flight"
                    + " did not finish)", late));
        }
    }

    /**
     * Lets every round of a persistent request freed in flight ({@link #detach}) finish before the context closes
     * (MPI 3.1 §6.4.3: pending operations complete normally; decision 0224): a synchronous send's acknowledgement, or
     * a message still on its way, would otherwise reach a closed context and fail a later call of the peer or of this
     * rank. Each wait has the backend's deadline. The first failure, or null.
     */
    private RuntimeException finishDetached() {
        RuntimeException first = null;
        for (Operation o : detached) {
            RuntimeException e = o.finishDetached();
            first = first == null ? e : first;
        }
        return first;
    }

    // ---- derived communicators, groups ----

    /** A new communicator of the same ranks in the same order (MPI_Comm_dup); collective. */
    public Comm dup() throws MPIException {
        return dupAs(n -> new Intracomm(n, false));
    }

    /** {@link #dup()}, the new communicator made by {@code kind} (a {@code CartComm} keeps its topology). */
    final <C extends Intracomm> C dupAs(java.util.function.Function<String, C> kind) throws MPIException {
        C made = derive("dup", ".dup", c -> Optional.of(new Derived(c.backend.dup(), members)), kind);
        attributes.copyTo(((Comm) made).attributes);
        ((Comm) made).hints.replaceWith(hints);
        return made;
    }

    /**
     * {@link #dup()} started as a non-blocking operation (MPI_Comm_idup): the new communicator, whose request
     * ({@link #getRequest()}) completes when it exists. railcoll's dup is one all-gather on this communicator, started
     * here as a non-blocking collective (in this communicator's order of collectives, so other non-blocking calls may
     * be started on it meanwhile, and completed in any order). Until the request has completed (a wait or a test that
     * reports it), every call on the new communicator is an {@code MPI.ERR_COMM} error saying so; its attributes and
     * hints are this one's at the call. Every rank of this communicator must call it, as {@code dup}.
     */
    public Comm iDup() throws MPIException {
        return iDupAs(n -> new Intracomm(n, false), false);
    }

    /**
     * {@link #iDup()}, the new communicator made by {@code kind}; {@code neighbours}: a topology's, whose
     * neighbourhood communicator ({@link NeighbourComm}) is a second duplication of this one started beside it.
     */
    final <C extends Intracomm> C iDupAs(java.util.function.Function<String, C> kind, boolean neighbours)
            throws MPIException {
        Backend.DupStart[] started = new Backend.DupStart[neighbours ? 2 : 1];
        collective("iDup", c -> {
            for (int i = 0; i < started.length; i++) {
                started[i] = c.backend.idup();
            }
        });
        C made = kind.apply(name + ".dup");
        Comm pendingComm = made;
        pendingComm.errhandler = errhandler;
        pendingComm.awaitingDup = true;
        attributes.copyTo(pendingComm.attributes);
        pendingComm.hints.replaceWith(hints);
        int[] ranks = members;
        Pending pending = started.length == 1 ? started[0].pending() : Pending.allOf(started[0].pending(),
                started[1].pending());
        pendingComm.dupRequest = Request.of(new Operation(this, "iDup", pending, () -> {
            Backend dup = started[0].made().get();
            if (neighbours) {
                try {
                    Intracomm halo = adopt(Optional.of(new Derived(started[1].made().get(), ranks)), ".dup",
                            n -> new Intracomm(n, false));
                    halo.setName(made.describe() + ".neighbours");
                    ((Intracomm) made).neighbourComm = NeighbourComm.over(halo);
                } catch (RuntimeException e) {
                    dup.close();
                    throw e;
                }
            }
            pendingComm.bind(dup, ranks);
            pendingComm.awaitingDup = false;
        }, null));
        return made;
    }

    /**
     * {@link #dup()}, with {@code info}'s hints instead of this communicator's (MPI_Comm_dup_with_info): the new
     * communicator's {@link #getInfo()} returns a copy of them. Collective. {@code info} may be {@code MPI.INFO_NULL}.
     */
    public Comm dupWithInfo(Info info) throws MPIException {
        return withHints(dup(), info, "dupWithInfo");
    }

    /** Replaces {@code made}'s hints (copied from its parent by {@code dup}) with {@code info}'s. */
    final <C extends Comm> C withHints(C made, Info info, String call) throws MPIException {
        Info given = requireInfo(info, call);
        ((Comm) made).hints.replaceWith(given);
        return made;
    }

    /**
     * The request of the {@code iDup} that made this communicator (MPI_Comm_idup's request), which completes when the
     * communicator may be used; null for a communicator made any other way. Usable before {@code MPI.Init}.
     */
    public final Request getRequest() {
        return dupRequest;
    }

    /**
     * Sets hints (MPI_Comm_set_info): each key of {@code info} replaces that key's value; keys not in it keep theirs.
     * railcoll acts on no hint, so every key is kept and {@link #getInfo()} returns it (as Open MPI 5 does with hints
     * it does not know). Local here (MPI makes it collective, with the same hints on every rank).
     */
    public final void setInfo(Info info) throws MPIException {
        live("setInfo");
        hints.putAll(requireInfo(info, "setInfo"));
    }

    /**
     * A new {@link Info} (which the caller frees) holding this communicator's hints: those set by {@link #setInfo},
     * {@link #dupWithInfo} or inherited from the communicator it was duplicated from.
     */
    public final Info getInfo() throws MPIException {
        live("getInfo");
        return hints.dup();
    }

    /** {@code info} if it is live, {@code MPI.INFO_NULL} as an empty one; null or freed is an {@code MPI.ERR_INFO} error. */
    private Info requireInfo(Info info, String call) throws MPIException {
        if (info == null || (info.isNull() && info != MPI.INFO_NULL)) {
            throw raise(call, MPIException.of(MPI.ERR_INFO, call + ": " + (info == null ? "info is null; pass MPI.INFO_NULL"
                    : "info was freed")));
        }
        return info == MPI.INFO_NULL ? new Info(false) : info;
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
        return derive(call, suffix, how, n -> new Intracomm(n, false));
    }

    /** {@link #derive(String, String, Derivation)}, the new communicator made by {@code kind} from its name. */
    final <C extends Intracomm> C derive(String call, String suffix, Derivation how,
            java.util.function.Function<String, C> kind) throws MPIException {
        java.util.List<C> made = new java.util.ArrayList<>(1);
        collective(call, c -> made.add(adopt(how.make(c), suffix, kind)));
        return made.get(0);
    }

    /**
     * The communicator over what {@code d} holds, made by {@code kind} and named after this one and {@code suffix},
     * with this one's error handler (as MPI says); a null communicator where {@code d} is empty.
     */
    final <C extends Intracomm> C adopt(Optional<Derived> d, String suffix,
            java.util.function.Function<String, C> kind) {
        C comm = kind.apply(d.isPresent() ? name + suffix : "MPI_COMM_NULL");
        Comm base = comm;
        base.errhandler = errhandler;
        if (d.isPresent()) {
            comm.bind(d.get().backend(), d.get().members());
        } else {
            base.freed = true;
        }
        return comm;
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

    // The hot collectives run their bodies inline between begin() and the unlock, without a lambda (decision 0136).

    public final void barrier() throws MPIException {
        Call c = begin("barrier");
        try {
            c.backend.barrier();
        } catch (RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** {@code root}'s {@code count} elements of {@code buf} into every rank's {@code buf}. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Call c = begin("bcast");
        try {
            DirectCall again = c.repeatedMove(DirectCall.Kind.BCAST, buf, count, type, null, 0, null, root);
            if (again != null) {
                c.backend.broadcast(again.send(), root);
                return;
            }
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment bytes = c.rank == root ? t.send(b, 0, count) : t.recvArea(b, count);
            c.backend.broadcast(bytes, root);
            if (c.rank != root) {
                t.deliver(bytes, b, 0, count);
            }
            if (t.sendsInPlace(b) && t.landsInPlace(b)) {
                c.rememberMove(DirectCall.Kind.BCAST, buf, count, type, null, 0, null, root, bytes, null);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** Rank i's {@code sendcount} elements land as block i ({@code recvcount} elements) of the root's {@code recvbuf}. */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) throws MPIException {
        Call c = begin("gather");
        try {
            // The receive arguments matter on the root only; elsewhere they are no part of the repeat's key.
            boolean atRoot = c.rank == root;
            DirectCall again = c.repeatedMove(DirectCall.Kind.GATHER, sendbuf, sendcount, sendtype,
                    atRoot ? recvbuf : null, atRoot ? recvcount : 0, atRoot ? recvtype : null, root);
            if (again != null) {
                c.backend.gather(again.send(), again.recv(), root);
                return;
            }
            c.count(sendcount, "sendcount");
            c.root(root);
            Transfer s = c.transfer(sendtype);
            UserBuffer in = s.buffer(sendbuf, sendcount, "sendbuf");
            MemorySegment send = s.send(in, 0, sendcount);
            if (!atRoot) {
                c.backend.gather(send, null, root);
                if (s.sendsInPlace(in)) {
                    c.rememberMove(DirectCall.Kind.GATHER, sendbuf, sendcount, sendtype, null, 0, null, root, send,
                            null);
                }
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
            if (s.sendsInPlace(in) && r.landsInPlace(out)) {
                c.rememberMove(DirectCall.Kind.GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                        send, recv);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
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
        Call c = begin("allGather");
        try {
            DirectCall again = c.repeatedMove(DirectCall.Kind.ALL_GATHER, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, 0);
            if (again != null) {
                c.backend.allgather(again.send(), again.recv());
                return;
            }
            c.count(sendcount, "sendcount");
            c.count(recvcount, "recvcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            UserBuffer in = s.buffer(sendbuf, sendcount, "sendbuf");
            MemorySegment send = s.send(in, 0, sendcount);
            long all = (long) recvcount * c.size;
            UserBuffer out = r.buffer(recvbuf, all, "recvbuf");
            MemorySegment recv = r.recvArea(out, all);
            c.backend.allgather(send, recv);
            r.deliver(recv, out, 0, all);
            if (s.sendsInPlace(in) && r.landsInPlace(out)) {
                c.rememberMove(DirectCall.Kind.ALL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                        0, send, recv);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** In place: {@code buf} holds {@code size * count} elements, this rank's block already at {@code rank * count}. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        Call c = begin("allGather");
        try {
            DirectCall again = c.repeatedMove(DirectCall.Kind.ALL_GATHER_IN_PLACE, buf, count, type, null, 0, null, 0);
            if (again != null) {
                // railcoll's in-place all-gather reads this rank's block where it lies (decision 0220).
                c.backend.allgatherInPlace(again.recv(), again.send().byteSize());
                return;
            }
            c.count(count, "count");
            Transfer t = c.transfer(type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment recv = inPlaceArea(c, t, b, count);
            c.backend.allgatherInPlace(recv, t.bytes(count));
            t.deliver(recv, b, 0, all);
            if (t.sendsInPlace(b) && t.landsInPlace(b)) {
                c.rememberMove(DirectCall.Kind.ALL_GATHER_IN_PLACE, buf, count, type, null, 0, null, 0,
                        t.send(b, (long) c.rank * count, count), recv);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * Where an in-place all-gather of {@code count} elements a rank runs for {@code b}: its own memory, this rank's
     * block already at its place; or staging, with this rank's block packed at its place there (decision 0220).
     */
    private static MemorySegment inPlaceArea(Call c, Transfer t, UserBuffer b, int count) {
        long all = (long) count * c.size;
        MemorySegment recv = t.recvArea(b, all);
        if (!t.landsInPlace(b)) {
            long block = t.bytes(count);
            t.packTo(b, (long) c.rank * count, count, recv.asSlice(c.rank * block, block));
        }
        return recv;
    }

    /**
     * Rank i's {@code sendcount} elements land in block i of every rank's {@code recvbuf}, block i holding
     * {@code recvcount[i]} elements from element {@code displs[i]} (in extents of {@code recvtype}). Carried out as
     * railcoll's all-gatherv (decision 0085).
     */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                 int[] displs, Datatype recvtype) throws MPIException {
        Call c = begin("allGatherv");
        try {
            c.count(sendcount, "sendcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            c.sameBytes(s, sendcount, r, recvcount[c.rank]);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            MemorySegment own = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            c.allgatherv(r, own, out, recvcount, displs);
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** In place: this rank's block already sits at {@code displs[rank]} of {@code recvbuf}. */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        Call c = begin("allGatherv");
        try {
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            // Landing in the program's memory, railcoll's in-place form reads this rank's block there (decision 0220).
            MemorySegment own = r.landsInPlace(out) ? null : r.sendCopy(out, displs[c.rank], recvcount[c.rank]);
            c.allgatherv(r, own, out, recvcount, displs);
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** Block j ({@code sendcount} elements) of {@code sendbuf} goes to rank j, landing as block i of its {@code recvbuf}. */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) throws MPIException {
        Call c = begin("allToAll");
        try {
            DirectCall again = c.repeatedMove(DirectCall.Kind.ALL_TO_ALL, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, 0);
            if (again != null) {
                c.backend.alltoall(again.send(), again.recv());
                return;
            }
            c.count(sendcount, "sendcount");
            c.count(recvcount, "recvcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            long sendAll = (long) sendcount * c.size;
            long recvAll = (long) recvcount * c.size;
            UserBuffer in = s.buffer(sendbuf, sendAll, "sendbuf");
            MemorySegment send = s.send(in, 0, sendAll);
            UserBuffer out = r.buffer(recvbuf, recvAll, "recvbuf");
            MemorySegment recv = r.recvArea(out, recvAll);
            c.backend.alltoall(send, recv);
            r.deliver(recv, out, 0, recvAll);
            if (s.sendsInPlace(in) && r.landsInPlace(out)) {
                c.rememberMove(DirectCall.Kind.ALL_TO_ALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                        0, send, recv);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
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

    /**
     * {@code sendCount[j]} elements of {@code sendTypes[j]} from byte {@code sDispls[j]} of {@code sendBuf} go to rank
     * j, landing at byte {@code rDispls[i]} of its {@code recvBuf} as {@code recvCount[i]} elements of
     * {@code recvTypes[i]}, i being the sender (displacements in bytes, as MPI has them). Padded as {@link #allToAllv}.
     */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Object recvBuf,
                                int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        collective("allToAllw", c -> AllToAllw.run(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount,
                rDispls, recvTypes));
    }

    /** {@code recvbuf} on every rank gets the element-wise {@code op} of every rank's {@code count} elements. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        Call c = begin("allReduce");
        try {
            DirectCall again = c.repeatedReduction(DirectCall.Kind.ALL_REDUCE, sendbuf, recvbuf, count, type, op, 0);
            if (again != null) {
                c.backend.allreduce(again.send(), again.recv(), again.elementType(), again.elements(), again.operator());
                return;
            }
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer in = t.buffer(sendbuf, count, "sendbuf");
            MemorySegment send = t.send(in, 0, count);
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            c.allreduce(plan, op, t, send, recv, count);
            t.deliver(recv, out, 0, count);
            if (plan.elementType() != null && t.sendsInPlace(in) && t.landsInPlace(out)) {
                c.rememberReduction(DirectCall.Kind.ALL_REDUCE, sendbuf, recvbuf, count, type, op, 0, send, recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** In place: {@code buf} holds this rank's {@code count} elements and receives the result. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        Call c = begin("allReduce");
        try {
            DirectCall again = c.repeatedReduction(DirectCall.Kind.ALL_REDUCE_IN_PLACE, buf, null, count, type, op, 0);
            if (again != null) {
                c.backend.allreduce(again.send(), again.send(), again.elementType(), again.elements(), again.operator());
                return;
            }
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            c.allreduce(plan, op, t, data, data, count);
            t.deliver(data, b, 0, count);
            if (plan.elementType() != null && t.sendsInPlace(b) && t.landsInPlace(b)) {
                c.rememberReduction(DirectCall.Kind.ALL_REDUCE_IN_PLACE, buf, null, count, type, op, 0, data, data,
                        plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * {@code root}'s {@code recvbuf} gets the element-wise {@code op} of every rank's {@code count} elements, in rank
     * order for a non-commutative op; {@code recvbuf} matters on the root only (null elsewhere is fine).
     */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Call c = begin("reduce");
        try {
            // recvbuf matters on the root only; elsewhere it is no part of the repeat's key.
            boolean atRoot = c.rank == root;
            DirectCall again = c.repeatedReduction(DirectCall.Kind.REDUCE, sendbuf, atRoot ? recvbuf : null, count, type,
                    op, root);
            if (again != null) {
                c.backend.reduce(again.send(), again.recv(), again.elementType(), again.elements(), again.operator(),
                        root);
                return;
            }
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer in = t.buffer(sendbuf, count, "sendbuf");
            MemorySegment send = t.send(in, 0, count);
            boolean direct = plan.elementType() != null && t.sendsInPlace(in);
            if (!atRoot) {
                c.reduce(plan, op, t, send, null, count, root);
                if (direct) {
                    c.rememberReduction(DirectCall.Kind.REDUCE, sendbuf, null, count, type, op, root, send, null, plan);
                }
                return;
            }
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            c.reduce(plan, op, t, send, recv, count, root);
            t.deliver(recv, out, 0, count);
            if (direct && t.landsInPlace(out)) {
                c.rememberReduction(DirectCall.Kind.REDUCE, sendbuf, recvbuf, count, type, op, root, send, recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * In place: on the root {@code buf} holds its {@code count} elements and receives the result; elsewhere
     * {@code buf} is input only and is not modified.
     */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        Call c = begin("reduce");
        try {
            DirectCall again = c.repeatedReduction(DirectCall.Kind.REDUCE_IN_PLACE, buf, null, count, type, op, root);
            if (again != null) {
                c.backend.reduce(again.send(), again.recv(), again.elementType(), again.elements(), again.operator(),
                        root);
                return;
            }
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            MemorySegment recv = c.rank == root ? data : null;
            c.reduce(plan, op, t, data, recv, count, root);
            if (c.rank == root) {
                t.deliver(data, b, 0, count);
            }
            if (plan.elementType() != null && t.sendsInPlace(b) && t.landsInPlace(b)) {
                c.rememberReduction(DirectCall.Kind.REDUCE_IN_PLACE, buf, null, count, type, op, root, data, recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * {@code sendbuf} holds {@code size * recvcount} elements, block j for rank j; this rank's {@code recvbuf} gets
     * the {@code op} of every rank's block {@code rank} ({@code recvcount} elements).
     */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        Call c = begin("reduceScatterBlock");
        try {
            DirectCall again = c.repeatedReduction(DirectCall.Kind.REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                    type, op, 0);
            if (again != null) {
                c.backend.reduceScatterBlock(again.send(), again.recv(), again.elementType(), again.elements(),
                        again.operator());
                return;
            }
            c.count(recvcount, "recvcount");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) recvcount * c.size;
            UserBuffer in = t.buffer(sendbuf, all, "sendbuf");
            MemorySegment send = t.send(in, 0, all);
            UserBuffer out = t.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment recv = t.recvArea(out, recvcount);
            c.reduceScatterBlock(plan, op, t, send, recv, recvcount);
            t.deliver(recv, out, 0, recvcount);
            if (plan.elementType() != null && t.sendsInPlace(in) && t.landsInPlace(out)) {
                c.rememberReduction(DirectCall.Kind.REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, type, op, 0,
                        send, recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** In place: {@code buf} holds {@code size * count} elements; this rank's result lands in its first {@code count}. */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        Call c = begin("reduceScatterBlock");
        try {
            DirectCall again = c.repeatedReduction(DirectCall.Kind.REDUCE_SCATTER_BLOCK_IN_PLACE, buf, null, count,
                    type, op, 0);
            if (again != null) {
                c.backend.reduceScatterBlock(again.send(), again.recv(), again.elementType(), again.elements(),
                        again.operator());
                return;
            }
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment data = t.send(b, 0, all);
            MemorySegment recv = data.asSlice(0, t.bytes(count));
            c.reduceScatterBlock(plan, op, t, data, recv, count);
            t.deliver(recv, b, 0, count);
            if (plan.elementType() != null && t.sendsInPlace(b) && t.landsInPlace(b)) {
                c.rememberReduction(DirectCall.Kind.REDUCE_SCATTER_BLOCK_IN_PLACE, buf, null, count, type, op, 0, data,
                        recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
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
        Call c = begin("scatter");
        try {
            // The send arguments matter on the root only; elsewhere they are no part of the repeat's key.
            boolean atRoot = c.rank == root;
            DirectCall again = c.repeatedMove(DirectCall.Kind.SCATTER, atRoot ? sendbuf : null, atRoot ? sendcount : 0,
                    atRoot ? sendtype : null, recvbuf, recvcount, recvtype, root);
            if (again != null) {
                c.backend.scatter(again.send(), again.recv(), root);
                return;
            }
            c.count(recvcount, "recvcount");
            c.root(root);
            Transfer r = c.transfer(recvtype);
            UserBuffer out = r.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment send = null;
            boolean direct = r.landsInPlace(out);
            if (atRoot) {
                c.count(sendcount, "sendcount");
                Transfer s = c.transfer(sendtype);
                c.sameBytes(s, sendcount, r, recvcount);
                long all = (long) sendcount * c.size;
                UserBuffer in = s.buffer(sendbuf, all, "sendbuf");
                send = s.send(in, 0, all);
                direct &= s.sendsInPlace(in);
            }
            MemorySegment recv = r.recvArea(out, recvcount);
            c.backend.scatter(send, recv, root);
            r.deliver(recv, out, 0, recvcount);
            if (direct) {
                c.rememberMove(DirectCall.Kind.SCATTER, atRoot ? sendbuf : null, atRoot ? sendcount : 0,
                        atRoot ? sendtype : null, recvbuf, recvcount, recvtype, root, send, recv);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
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

    // ---- attributes (values Java-serialised, as in the bindings) ----

    /** A new keyval for {@link #setAttr}; local. */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Attributes.createKeyval();
    }

    /** Frees a keyval of {@link #createKeyval}; an {@code MPI.ERR_KEYVAL} error for any other. */
    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
        if (!Attributes.freeKeyval(keyval)) {
            throw MPI.COMM_WORLD.raise("freeKeyval", MPIException.of(MPI.ERR_KEYVAL, "invalid keyval: " + keyval
                    + " is not a keyval of createKeyval, or was freed"));
        }
    }

    /** Caches {@code value} (which must be {@link java.io.Serializable}) under {@code keyval} on this communicator. */
    public final void setAttr(int keyval, Object value) throws MPIException {
        live("setAttr");
        if (!Attributes.live(keyval)) {
            throw raise("setAttr", MPIException.of(MPI.ERR_KEYVAL, "invalid keyval: setAttr on " + name + " with "
                    + keyval + (Attributes.predefined(keyval) ? ", a predefined keyval (read-only)"
                    : ", not a keyval of createKeyval (or freed)")));
        }
        attributes.set(keyval, value);
    }

    /**
     * A copy of the value cached under {@code keyval}, or null if none is; the predefined keyvals give an
     * {@code Integer} ({@code MPI.TAG_UB}: {@code Integer.MAX_VALUE}, {@code MPI.UNIVERSE_SIZE}: the job's size, ...)
     * or, for {@code MPI.WTIME_IS_GLOBAL}, {@code Boolean.FALSE}.
     */
    public final Object getAttr(int keyval) throws MPIException {
        live("getAttr");
        if (Attributes.predefined(keyval)) {
            return Attributes.predefinedValue(keyval, MPI.COMM_WORLD.getSize());
        }
        return attributes.get(keyval);
    }

    /** Removes the value cached under {@code keyval} (nothing if none is). */
    public final void deleteAttr(int keyval) throws MPIException {
        live("deleteAttr");
        if (Attributes.predefined(keyval)) {
            throw raise("deleteAttr", MPIException.of(MPI.ERR_KEYVAL, "invalid keyval: deleteAttr on " + name
                    + " of the predefined keyval " + keyval + " (read-only)"));
        }
        attributes.delete(keyval);
    }

    // ---- pack, unpack (positions and sizes in bytes; the packed form is railcoll-mpi's: native order, no gaps) ----

    /**
     * Packs {@code incount} elements of {@code type} from {@code inbuf} into {@code outbuf} from byte {@code position};
     * returns the position after them. Elements that do not fit are an {@code MPI.ERR_TRUNCATE} error (the bindings
     * pack nothing when {@code position == outbuf.length}, silently).
     */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        int[] end = {position};
        collective("pack", c -> {
            c.count(incount, "incount");
            Transfer t = c.transfer(type);
            java.util.Objects.requireNonNull(outbuf, "outbuf");
            long bytes = t.bytes(incount);
            if (position < 0 || position + bytes > outbuf.length) {
                throw c.error(MPI.ERR_TRUNCATE, "message truncated: " + incount + " elements of " + type.describe()
                        + " pack to " + bytes + " bytes, which do not fit at position " + position + " of "
                        + outbuf.length);
            }
            if (incount > 0) {
                t.packTo(t.buffer(inbuf, incount, "inbuf"), 0, incount,
                        MemorySegment.ofArray(outbuf).asSlice(position, bytes));
            }
            end[0] = Math.toIntExact(position + bytes);
        });
        return end[0];
    }

    /**
     * Unpacks {@code outcount} elements of {@code type} from {@code inbuf} at byte {@code position} into {@code outbuf};
     * returns the position after them. Fewer bytes than they need is an {@code MPI.ERR_TRUNCATE} error.
     */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) throws MPIException {
        int[] end = {position};
        collective("unpack", c -> {
            c.count(outcount, "outcount");
            Transfer t = c.transfer(type);
            java.util.Objects.requireNonNull(inbuf, "inbuf");
            long bytes = t.bytes(outcount);
            if (position < 0 || position + bytes > inbuf.length) {
                throw c.error(MPI.ERR_TRUNCATE, "message truncated: " + outcount + " elements of " + type.describe()
                        + " need " + bytes + " packed bytes from position " + position + " but inbuf has "
                        + inbuf.length);
            }
            if (outcount > 0) {
                t.deliver(MemorySegment.ofArray(inbuf).asSlice(position, bytes), t.buffer(outbuf, outcount, "outbuf"),
                        0, outcount);
            }
            end[0] = Math.toIntExact(position + bytes);
        });
        return end[0];
    }

    /** The bytes {@link #pack} writes for {@code incount} elements of {@code type} (exact, not only a bound). */
    public final int packSize(int incount, Datatype type) throws MPIException {
        int[] size = {0};
        collective("packSize", c -> {
            c.count(incount, "incount");
            size[0] = Math.toIntExact(c.transfer(type).bytes(incount));
        });
        return size[0];
    }

    // ---- non-blocking collectives (docs/mpi.md "Non-blocking collectives") ----
    //
    // Each starts railcoll's non-blocking collective and returns its Request. Buffers may be direct, as the bindings
    // demand, or heap buffers (over arrays, MPI.slice included): a contiguous type in a direct buffer or a heap
    // ByteBuffer is used in place and belongs to the operation until it has finished; anything else is packed into
    // staging memory of the request's own when the call starts (so the send data is taken then) and received elements
    // are unpacked into the program's buffer by the wait or test that sees it finish.

    /** Starts a barrier. */
    public final Request iBarrier() throws MPIException {
        return nonBlocking("iBarrier", c -> new Started(c.backend.ibarrier()));
    }

    /**
     * Starts {@link #bcast}: {@code root}'s {@code count} elements of {@code buf} into every rank's {@code buf}. Inline
     * on the reusable call, as the blocking hot calls (decision 0150).
     */
    public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iBcast", own);
        try {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            if (c.rank == root) {
                return started(c, c.backend.ibroadcast(t.send(b, 0, count), root), Operation.Finish.NOTHING, own);
            }
            MemorySegment recv = t.recvArea(b, count);
            return started(c, c.backend.ibroadcast(recv, root), t.delivery(recv, b, 0, count), own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iBcast", e);
        } finally {
            lock.exit();
        }
    }

    /** Starts {@link #gather(Object, int, Datatype, Object, int, Datatype, int)}; {@code recvbuf} matters on the root only. */
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                 Datatype recvtype, int root) throws MPIException {
        return nonBlocking("iGather", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            Transfer s = c.transfer(sendtype);
            MemorySegment send = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            if (c.rank != root) {
                return new Started(c.backend.igather(send, null, root));
            }
            c.count(recvcount, "recvcount");
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            long all = (long) recvcount * c.size;
            UserBuffer out = r.buffer(recvbuf, all, "recvbuf");
            MemorySegment recv = r.recvArea(out, all);
            return new Started(c.backend.igather(send, recv, root), () -> r.deliver(recv, out, 0, all));
        });
    }

    /** Starts the in-place {@link #gather(Object, int, Datatype, int)}. */
    public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return nonBlocking("iGather", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            if (c.rank != root) {
                return new Started(c.backend.igather(t.send(t.buffer(buf, count, "buf"), 0, count), null, root));
            }
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment own = t.sendCopy(b, (long) root * count, count);
            MemorySegment recv = t.recvArea(b, all);
            return new Started(c.backend.igather(own, recv, root), () -> t.deliver(recv, b, 0, all));
        });
    }

    /** Starts {@link #allGather(Object, int, Datatype, Object, int, Datatype)}. */
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                    Datatype recvtype) throws MPIException {
        return nonBlockingOnSharedCall("iAllGather", c -> {
            c.count(sendcount, "sendcount");
            c.count(recvcount, "recvcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.sameBytes(s, sendcount, r, recvcount);
            MemorySegment send = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            long all = (long) recvcount * c.size;
            UserBuffer out = r.buffer(recvbuf, all, "recvbuf");
            MemorySegment recv = r.recvArea(out, all);
            return new Started(c.backend.iallgather(send, recv), () -> r.deliver(recv, out, 0, all));
        });
    }

    /** Starts the in-place {@link #allGather(Object, int, Datatype)}: own block already at {@code rank * count}. */
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return nonBlockingOnSharedCall("iAllGather", c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment recv = inPlaceArea(c, t, b, count);
            return new Started(c.backend.iallgatherInPlace(recv, t.bytes(count)), () -> t.deliver(recv, b, 0, all));
        });
    }

    /**
     * Starts {@link #allGatherv(Object, int, Datatype, Object, int[], int[], Datatype)}. Into a buffer railcoll lands in
     * as it is (a direct buffer of a contiguous type), railcoll-core's non-blocking all-gatherv puts every block at its
     * displacement in the program's memory, with no copy here (decision 0087); into any other (a heap array), an
     * all-gather of blocks padded to the largest runs in the request's staging, each block put at its displacement
     * when it finishes. Inline on the reusable call, as {@link #iBcast}.
     */
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                                     int[] displs, Datatype recvtype) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iAllGatherv", own);
        try {
            c.count(sendcount, "sendcount");
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            c.sameBytes(s, sendcount, r, recvcount[c.rank]);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            MemorySegment mine = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            return iAllGathervStarted(c, r, mine, out, recvcount, displs, own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iAllGatherv", e);
        } finally {
            lock.exit();
        }
    }

    /**
     * Starts the in-place {@link #allGatherv(Object, int[], int[], Datatype)}: own block already at {@code displs[rank]}
     * (read there where the blocks land in the program's memory, else copied to be sent, as the blocking form does);
     * lands as the other {@code iAllGatherv}.
     */
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iAllGatherv", own);
        try {
            Transfer r = c.transfer(type);
            c.vector(count, displs);
            UserBuffer out = r.buffer(buf, c.vectorSpan(count, displs), "buf");
            MemorySegment mine = r.landsInPlace(out) ? null : r.sendCopy(out, displs[c.rank], count[c.rank]);
            return iAllGathervStarted(c, r, mine, out, count, displs, own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iAllGatherv", e);
        } finally {
            lock.exit();
        }
    }

    /** The request of an {@code iAllGatherv} whose arguments are checked: in place where it can land, else staged. */
    private Request iAllGathervStarted(Call c, Transfer r, MemorySegment mine, UserBuffer out, int[] counts,
                                       int[] displs, Staging own) {
        if (r.landsInPlace(out)) {
            return started(c, c.iallgathervInPlace(r, mine, out, counts, displs), Operation.Finish.NOTHING, own);
        }
        return started(c, c.iallgatherv(r, mine, out, counts.clone(), displs.clone()), own);
    }

    /** Starts {@link #allToAll}. */
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                   Datatype recvtype) throws MPIException {
        return nonBlocking("iAllToAll", c -> {
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
            return new Started(c.backend.ialltoall(send, recv), () -> r.deliver(recv, out, 0, recvAll));
        });
    }

    /** Starts {@link #allReduce(Object, Object, int, Datatype, Op)}; inline, as {@link #iBcast}. */
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iAllReduce", own);
        try {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            return started(c, c.iallreduce(plan, op, t, send, recv, count, out), own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iAllReduce", e);
        } finally {
            lock.exit();
        }
    }

    /** Starts the in-place {@link #allReduce(Object, int, Datatype, Op)}; inline, as {@link #iBcast}. */
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iAllReduce", own);
        try {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            return started(c, c.iallreduce(plan, op, t, data, data, count, b), own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iAllReduce", e);
        } finally {
            lock.exit();
        }
    }

    /**
     * Starts {@link #reduceScatter(Object, Object, int[], Datatype, Op)}: railcoll's non-blocking all-reduce of the whole
     * vector, of which this rank keeps its block when it finishes (decision 0078's uneven case, for any counts).
     */
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return nonBlocking("iReduceScatter", c -> {
            c.counts(recvcounts, "recvcounts");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = sum(recvcounts, c.size);
            MemorySegment send = t.send(t.buffer(sendbuf, all, "sendbuf"), 0, all);
            UserBuffer out = t.buffer(recvbuf, recvcounts[c.rank], "recvbuf");
            return c.ireduceScatter(plan, op, t, send, out, recvcounts.clone());
        });
    }

    /** Starts the in-place {@link #reduceScatter(Object, int[], Datatype, Op)}. */
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return nonBlocking("iReduceScatter", c -> {
            c.counts(counts, "counts");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = sum(counts, c.size);
            UserBuffer b = t.buffer(buf, all, "buf");
            return c.ireduceScatter(plan, op, t, t.send(b, 0, all), b, counts.clone());
        });
    }

    /** Starts {@link #reduce(Object, Object, int, Datatype, Op, int)}; {@code recvbuf} matters on the root only. */
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return nonBlockingOnSharedCall("iReduce", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            if (c.rank != root) {
                return c.ireduce(plan, op, t, send, null, count, root, Operation.Finish.NOTHING);
            }
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            return c.ireduce(plan, op, t, send, recv, count, root, () -> t.deliver(recv, out, 0, count));
        });
    }

    /** Starts the in-place {@link #reduce(Object, int, Datatype, Op, int)}: {@code buf} is written on the root only. */
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return nonBlockingOnSharedCall("iReduce", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            if (c.rank != root) {
                return c.ireduce(plan, op, t, data, null, count, root, Operation.Finish.NOTHING);
            }
            return c.ireduce(plan, op, t, data, data, count, root, () -> t.deliver(data, b, 0, count));
        });
    }

    /** Starts {@link #reduceScatterBlock(Object, Object, int, Datatype, Op)}. */
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return nonBlocking("iReduceScatterBlock", c -> {
            c.count(recvcount, "recvcount");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) recvcount * c.size;
            MemorySegment send = t.send(t.buffer(sendbuf, all, "sendbuf"), 0, all);
            UserBuffer out = t.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment recv = t.recvArea(out, recvcount);
            return c.ireduceScatterBlock(plan, op, t, send, recv, recvcount, () -> t.deliver(recv, out, 0, recvcount));
        });
    }

    /** Starts the in-place {@link #reduceScatterBlock(Object, int, Datatype, Op)}: the result in the first {@code count}. */
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return nonBlocking("iReduceScatterBlock", c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            long all = (long) count * c.size;
            UserBuffer b = t.buffer(buf, all, "buf");
            MemorySegment data = t.send(b, 0, all);
            MemorySegment recv = data.asSlice(0, t.bytes(count));
            return c.ireduceScatterBlock(plan, op, t, data, recv, count, () -> t.deliver(recv, b, 0, count));
        });
    }

    /** Starts {@link #scatter(Object, int, Datatype, Object, int, Datatype, int)}; the send arguments matter on the root only. */
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                  Datatype recvtype, int root) throws MPIException {
        return nonBlocking("iScatter", c -> {
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
            return new Started(c.backend.iscatter(send, recv, root), () -> r.deliver(recv, out, 0, recvcount));
        });
    }

    /** Starts the in-place {@link #scatter(Object, int, Datatype, int)}: the root's own block stays where it is. */
    public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return nonBlocking("iScatter", c -> {
            c.count(count, "count");
            c.root(root);
            Transfer t = c.transfer(type);
            if (c.rank == root) {
                long all = (long) count * c.size;
                return new Started(c.backend.iscatter(t.send(t.buffer(buf, all, "buf"), 0, all), null, root));
            }
            UserBuffer out = t.buffer(buf, count, "buf");
            MemorySegment recv = t.recvArea(out, count);
            return new Started(c.backend.iscatter(null, recv, root), () -> t.deliver(recv, out, 0, count));
        });
    }

    /**
     * Starts {@link #gatherv(Object, int, Datatype, Object, int[], int[], Datatype, int)}; the receive arguments
     * matter on the root only. Carried out as railcoll's non-blocking all-to-allv in which every rank sends to the
     * root alone (decision 0109): nothing waits here, and a block whose size differs from the root's count for it
     * fails every rank with a count mismatch ({@code MPI.ERR_OTHER}), where the blocking call reports
     * {@code MPI.ERR_TRUNCATE} for a larger one.
     */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                                  int[] displs, Datatype recvtype, int root) throws MPIException {
        return nonBlocking("iGatherv", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            Transfer s = c.transfer(sendtype);
            MemorySegment own = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
            if (c.rank != root) {
                return c.igatherv(null, own, null, null, null, root);
            }
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            c.sameBytes(s, sendcount, r, recvcount[root]);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            return c.igatherv(r, own, out, recvcount, displs, root);
        });
    }

    /** Starts the root's in-place {@link #gatherv(Object, int[], int[], Datatype, int)}. */
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return nonBlocking("iGatherv", c -> {
            c.root(root);
            if (c.rank != root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: the in-place iGatherv(recvbuf, recvcount, displs, recvtype, "
                        + root + ") is the root's form; the other ranks call iGatherv(sendbuf, sendcount, sendtype, root)");
            }
            Transfer r = c.transfer(recvtype);
            c.vector(recvcount, displs);
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, displs), "recvbuf");
            return c.igatherv(r, r.sendCopy(out, displs[root], recvcount[root]), out, recvcount, displs, root);
        });
    }

    /** Starts the other ranks' {@link #gatherv(Object, int, Datatype, int)}: no receive arguments. */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return nonBlocking("iGatherv", c -> {
            c.count(sendcount, "sendcount");
            c.root(root);
            if (c.rank == root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: iGatherv(sendbuf, sendcount, sendtype, " + root
                        + ") is the other ranks' form; the root calls iGatherv(recvbuf, recvcount, displs, recvtype, root)");
            }
            Transfer s = c.transfer(sendtype);
            return c.igatherv(null, s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount), null, null, null,
                    root);
        });
    }

    /**
     * Starts {@link #scatterv(Object, int[], int[], Datatype, Object, int, Datatype, int)}; the send arguments matter
     * on the root only. Carried out as railcoll's non-blocking all-to-allv in which the root alone sends (decision
     * 0109): a block whose size differs from its rank's receive count fails every rank with a count mismatch
     * ({@code MPI.ERR_OTHER}) rather than {@code MPI.ERR_TRUNCATE} on that rank.
     */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
                                   int recvcount, Datatype recvtype, int root) throws MPIException {
        return nonBlocking("iScatterv", c -> {
            c.count(recvcount, "recvcount");
            c.root(root);
            Transfer r = c.transfer(recvtype);
            UserBuffer out = r.buffer(recvbuf, recvcount, "recvbuf");
            if (c.rank != root) {
                return c.iscatterv(null, null, null, null, r, out, recvcount, root);
            }
            Transfer s = c.transfer(sendtype);
            c.vector(sendcount, displs);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, displs), "sendbuf");
            return c.iscatterv(s, in, sendcount, displs, r, out, recvcount, root);
        });
    }

    /** Starts the root's in-place {@link #scatterv(Object, int[], int[], Datatype, int)}: its own block stays. */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return nonBlocking("iScatterv", c -> {
            c.root(root);
            if (c.rank != root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: the in-place iScatterv(sendbuf, sendcount, displs, sendtype, "
                        + root + ") is the root's form; the other ranks call iScatterv(recvbuf, recvcount, recvtype, root)");
            }
            Transfer s = c.transfer(sendtype);
            c.vector(sendcount, displs);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, displs), "sendbuf");
            return c.iscatterv(s, in, sendcount, displs, null, null, 0, root);
        });
    }

    /** Starts the other ranks' {@link #scatterv(Object, int, Datatype, int)}: no send arguments. */
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return nonBlocking("iScatterv", c -> {
            c.count(recvcount, "recvcount");
            c.root(root);
            if (c.rank == root) {
                throw c.error(MPI.ERR_ROOT, "invalid root: iScatterv(recvbuf, recvcount, recvtype, " + root
                        + ") is the other ranks' form; the root calls iScatterv(sendbuf, sendcount, displs, sendtype, root)");
            }
            Transfer r = c.transfer(recvtype);
            return c.iscatterv(null, null, null, null, r, r.buffer(recvbuf, recvcount, "recvbuf"), recvcount, root);
        });
    }

    /**
     * Starts {@link #allToAllv}: the blocks are packed into the request's own memory now (the program may reuse
     * {@code sendbuf} at once), railcoll's non-blocking all-to-allv chains its count exchange and the data without
     * waiting (decision 0108), and each block lands at its displacement when the request finishes.
     */
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf,
                                    int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return nonBlocking("iAllToAllv", c -> {
            Transfer s = c.transfer(sendtype);
            Transfer r = c.transfer(recvtype);
            c.vector(sendcount, sdispls);
            c.vector(recvcount, rdispls);
            c.sameBytes(s, sendcount[c.rank], r, recvcount[c.rank]);
            UserBuffer in = s.buffer(sendbuf, c.vectorSpan(sendcount, sdispls), "sendbuf");
            UserBuffer out = r.buffer(recvbuf, c.vectorSpan(recvcount, rdispls), "recvbuf");
            return c.ialltoallv(s, in, sendcount, sdispls, r, out, recvcount, rdispls);
        });
    }

    /**
     * Starts {@link #allToAllw}: each block packed by its own type into the request's memory now, railcoll's
     * non-blocking all-to-allv of the exact block sizes (no padding, unlike the blocking call), and each block
     * unpacked by its receive type when the request finishes (decision 0109).
     */
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                    Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        return nonBlocking("iAllToAllw", c -> AllToAllw.start(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                recvCount, rDispls, recvTypes));
    }

    /** Starts an inclusive or exclusive prefix ({@code iScan}, {@code iExScan}) from {@code sendbuf} into {@code recvbuf}. */
    final Request iprefix(String name, Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op,
                          boolean exclusive) throws MPIException {
        return nonBlockingOnSharedCall(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send = t.send(t.buffer(sendbuf, count, "sendbuf"), 0, count);
            UserBuffer out = t.buffer(recvbuf, count, "recvbuf");
            MemorySegment recv = t.recvArea(out, count);
            return c.iscan(plan, op, t, send, recv, count, exclusive, () -> t.deliver(recv, out, 0, count));
        });
    }

    /** In place: {@code buf} holds this rank's elements and receives the prefix (rank 0's left as it is, exclusive). */
    final Request iprefix(String name, Buffer buf, int count, Datatype type, Op op, boolean exclusive)
            throws MPIException {
        return nonBlockingOnSharedCall(name, c -> {
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.send(b, 0, count);
            return c.iscan(plan, op, t, data, data, count, exclusive, () -> t.deliver(data, b, 0, count));
        });
    }

    // ---- neighbourhood collectives (NeighbourExchange), inter-communicators ----

    /**
     * MPI_Neighbor_allgather: {@code sendbuf} to each of this process's destinations, block {@code i} of
     * {@code recvbuf} from source {@code i}, in MPI's neighbour order (a {@link CartComm}: for each dimension the
     * lower then the upper neighbour; a graph: its edges in the order given; a distributed graph: its sources and its
     * destinations, as {@link GraphComm#getDistGraphNeighbors()} lists them); collective. Without a topology
     * {@code MPI.ERR_TOPOLOGY}.
     */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("neighborAllGather");
        nonBlocking("neighborAllGather", c -> NeighbourExchange.allGather(c, n, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype)).waitFor();
    }

    /**
     * Starts {@link #neighborAllGather}: every send and receive is posted before this returns, on the topology's own
     * communicator; the request finishes when all have (decision 0124).
     */
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("iNeighborAllGather");
        return nonBlocking("iNeighborAllGather", c -> NeighbourExchange.allGather(c, n, sendbuf, sendcount, sendtype,
                recvbuf, recvcount, recvtype));
    }

    /** {@link #neighborAllGather} with block {@code i} of {@code recvcount[i]} elements at element {@code displs[i]}. */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("neighborAllGatherv");
        nonBlocking("neighborAllGatherv", c -> NeighbourExchange.allGatherv(c, n, sendbuf, sendcount, sendtype,
                recvbuf, recvcount, displs, recvtype)).waitFor();
    }

    /** Starts {@link #neighborAllGatherv} (as {@link #iNeighborAllGather}). */
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("iNeighborAllGatherv");
        return nonBlocking("iNeighborAllGatherv", c -> NeighbourExchange.allGatherv(c, n, sendbuf, sendcount,
                sendtype, recvbuf, recvcount, displs, recvtype));
    }

    /**
     * MPI_Neighbor_alltoall: block {@code i} of {@code sendbuf} to destination {@code i}, block {@code i} of
     * {@code recvbuf} from source {@code i} (see {@link #neighborAllGather} for the order); collective.
     */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("neighborAllToAll");
        nonBlocking("neighborAllToAll", c -> NeighbourExchange.allToAll(c, n, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype)).waitFor();
    }

    /** Starts {@link #neighborAllToAll} (as {@link #iNeighborAllGather}). */
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("iNeighborAllToAll");
        return nonBlocking("iNeighborAllToAll", c -> NeighbourExchange.allToAll(c, n, sendbuf, sendcount, sendtype,
                recvbuf, recvcount, recvtype));
    }

    /** {@link #neighborAllToAll} with a count and displacement (in extents) per destination and per source. */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("neighborAllToAllv");
        nonBlocking("neighborAllToAllv", c -> NeighbourExchange.allToAllv(c, n, sendbuf, sendcount, sdispls, sendtype,
                recvbuf, recvcount, rdispls, recvtype)).waitFor();
    }

    /** Starts {@link #neighborAllToAllv} (as {@link #iNeighborAllGather}). */
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
            Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        NeighbourExchange.Neighbours n = neighbours("iNeighborAllToAllv");
        return nonBlocking("iNeighborAllToAllv", c -> NeighbourExchange.allToAllv(c, n, sendbuf, sendcount, sdispls,
                sendtype, recvbuf, recvcount, rdispls, recvtype));
    }

    /**
     * This communicator's neighbours and the communicator its neighbourhood collectives run on, for {@code call}: an
     * {@code MPI.ERR_TOPOLOGY} error here, where there is no process topology, as MPI has it; the topology
     * communicators override it.
     */
    NeighbourExchange.Neighbours neighbours(String call) throws MPIException {
        live(call);
        throw raise(call, MPIException.of(MPI.ERR_TOPOLOGY, "invalid topology: " + call + " on " + name
                + ", which has no process topology (createCart, createGraph and createDistGraph make one)"));
    }

    /** An inter-communicator (MPI_Intercomm_create): {@code MPI.ERR_UNSUPPORTED_OPERATION} (decision 0117). */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        live("createIntercomm");
        throw Unsupported.on(this, "Comm.createIntercomm", Unsupported.INTERCOMM);
    }

    /**
     * MPI_Comm_disconnect on this (intra-)communicator: waits until every rank has called it (a barrier, by which
     * every rank's earlier calls on it have finished here), then frees it as {@link #free()} does. Requests still
     * pending on it must be waited for first. {@code COMM_WORLD} and {@code COMM_SELF} cannot be disconnected
     * ({@code MPI.ERR_COMM}, checked before the barrier). Collective.
     */
    public final void disconnect() throws MPIException {
        live("disconnect");
        if (predefined) {
            throw raise("disconnect", MPIException.of(MPI.ERR_COMM, "invalid communicator: " + name
                    + " cannot be disconnected"));
        }
        barrier();
        free();
    }

    // ---- plumbing ----

    /**
     * {@code Intracomm.scan}/{@code exScan} ({@code exclusive}), on the path allReduce takes: inline between
     * {@link #begin(String)} and the unlock, as the hot collectives (decision 0136), so a loop of them allocates nothing
     * here. {@code inPlace}: {@code recvbuf} in and out. Rank 0 of an exclusive one gets no result.
     */
    final void prefix(String name, boolean inPlace, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean exclusive)
            throws MPIException {
        Call c = begin(name);
        try {
            DirectCall.Kind kind = exclusive
                    ? (inPlace ? DirectCall.Kind.EX_SCAN_IN_PLACE : DirectCall.Kind.EX_SCAN)
                    : (inPlace ? DirectCall.Kind.SCAN_IN_PLACE : DirectCall.Kind.SCAN);
            Object in = inPlace ? null : sendbuf;
            DirectCall again = c.repeatedReduction(kind, in, recvbuf, count, type, op, 0);
            if (again != null) {
                if (exclusive) {
                    c.backend.exscan(again.send(), again.recv(), again.elementType(), again.elements(), again.operator());
                } else {
                    c.backend.scan(again.send(), again.recv(), again.elementType(), again.elements(), again.operator());
                }
                return;
            }
            c.count(count, "count");
            Transfer t = c.transfer(type);
            Reductions.Plan plan = c.plan(op, type);
            MemorySegment send;
            UserBuffer out;
            MemorySegment recv;
            boolean sendsInPlace;
            if (inPlace) {
                out = t.buffer(recvbuf, count, "buf");
                send = t.send(out, 0, count);
                recv = send;
                sendsInPlace = t.sendsInPlace(out);
            } else {
                UserBuffer from = t.buffer(sendbuf, count, "sendbuf");
                send = t.send(from, 0, count);
                out = t.buffer(recvbuf, count, "recvbuf");
                recv = t.recvArea(out, count);
                sendsInPlace = t.sendsInPlace(from);
            }
            c.scan(plan, op, t, send, recv, count, exclusive);
            if (!exclusive || c.rank > 0) {
                t.deliver(recv, out, 0, count);
            }
            if (plan.elementType() != null && sendsInPlace && t.landsInPlace(out)) {
                c.rememberReduction(kind, in, recvbuf, count, type, op, 0, send, recv, plan);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    // ---- point-to-point (decision 0083): MPI.PROC_NULL is answered here, the rest goes to the backend ----

    /** Sends {@code count} elements of {@code buf} to {@code dest}; returns when {@code buf} may be reused. */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("send", buf, count, type, dest, tag, false);
    }

    /** {@link #send} that returns only once the receiver has matched the message (MPI_Ssend). */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("sSend", buf, count, type, dest, tag, true);
    }

    /**
     * Ready send (MPI_Rsend): the program promises the receive is posted. railcoll sends every message at once and
     * its receiver always takes it, so this is {@link #send}; a program that breaks the promise still works.
     */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("rSend", buf, count, type, dest, tag, false);
    }

    /**
     * Buffered send (MPI_Bsend): the elements are copied into the buffer attached with {@link MPI#attachBuffer}
     * (each message takes its packed bytes plus {@link MPI#BSEND_OVERHEAD}) and sent from there; returns at once.
     * {@code MPI.ERR_BUFFER} when the attached buffer has no room left.
     */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        collective("bSend", c -> {
            Messages.checkSend(c, count, dest, tag);
            if (dest == MPI.PROC_NULL) {
                return;
            }
            Transfer t = c.transfer(type);
            MemorySegment data = t.send(t.buffer(buf, count, "buf"), 0, count);
            BufferedSends.send(c, data, dest, tag);
        });
    }

    private void blockingSend(String name, Object buf, int count, Datatype type, int dest, int tag, boolean sync)
            throws MPIException {
        Call c = begin(name); // inline, as the hot collectives (decision 0150)
        try {
            Messages.checkSend(c, count, dest, tag);
            if (dest != MPI.PROC_NULL) {
                Transfer t = c.transfer(type);
                c.backend.send(t.send(t.buffer(buf, count, "buf"), 0, count), dest, tag, sync);
            }
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * Receives up to {@code count} elements into {@code buf} from {@code source} ({@code MPI.ANY_SOURCE}) with
     * {@code tag} ({@code MPI.ANY_TAG}); the status has the real source, tag and count. A longer message is
     * {@code MPI.ERR_TRUNCATE} (the whole elements that fit were received). From {@code MPI.PROC_NULL}: nothing, at once.
     */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Call c = begin("recv"); // inline, as the hot collectives (decision 0150)
        try {
            Messages.checkRecv(c, count, source, tag);
            if (source == MPI.PROC_NULL) {
                return Messages.fromProcNull();
            }
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment area = t.recvArea(b, count);
            return Messages.receive(c, t, area, b, source, tag);
        } catch (MPIException | RuntimeException e) {
            throw fault(this, c.name, e);
        } finally {
            lock.exit();
        }
    }

    /** Sends and receives at once (the send does not wait for the receive), as {@link #send} and {@link #recv}. */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Status[] got = new Status[1];
        collective("sendRecv", c -> {
            Messages.checkSend(c, sendcount, dest, sendtag);
            Messages.checkRecv(c, recvcount, source, recvtag);
            Transfer r = c.transfer(recvtype);
            UserBuffer out = r.buffer(recvbuf, recvcount, "recvbuf");
            MemorySegment area = r.recvArea(out, recvcount);
            Pending recv = source == MPI.PROC_NULL ? null : c.backend.irecv(area, source, recvtag);
            if (dest != MPI.PROC_NULL) {
                Transfer s = c.transfer(sendtype);
                c.backend.isend(s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount), dest, sendtag, false)
                        .await();
            }
            got[0] = recv == null ? Messages.fromProcNull() : Messages.received(c, r, recv, area, out);
        });
        return got[0];
    }

    /** {@link #sendRecv} with one buffer: its elements are sent, then replaced by those received. */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                       int recvtag) throws MPIException {
        Status[] got = new Status[1];
        collective("sendRecvReplace", c -> {
            Messages.checkSend(c, count, dest, sendtag);
            Messages.checkRecv(c, count, source, recvtag);
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment data = t.sendCopy(b, 0, count); // a copy: the receive lands in the same elements
            MemorySegment area = t.recvArea(b, count);
            Pending recv = source == MPI.PROC_NULL ? null : c.backend.irecv(area, source, recvtag);
            if (dest != MPI.PROC_NULL) {
                c.backend.isend(data, dest, sendtag, false).await();
            }
            got[0] = recv == null ? Messages.fromProcNull() : Messages.received(c, t, recv, area, b);
        });
        return got[0];
    }

    /** Starts {@link #send}: {@code buf} is railcoll's until the request has finished. */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return inlineSend("iSend", buf, count, type, dest, tag, false);
    }

    /** Starts {@link #sSend}: the request finishes once the receiver matched the message. */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return inlineSend("isSend", buf, count, type, dest, tag, true);
    }

    /** Starts {@link #rSend} (as {@link #iSend}). */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return inlineSend("irSend", buf, count, type, dest, tag, false);
    }

    /**
     * A standard or synchronous send started inline on the reusable call (decision 0159): no start lambda, no
     * {@code Started} pair, no call of its own (a send leaves no finishing work). Its staging holds a packed copy
     * where the buffer needs one, and is taken from the spare ones.
     */
    private Request inlineSend(String name, Buffer buf, int count, Datatype type, int dest, int tag, boolean sync)
            throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking(name, own);
        try {
            Messages.checkSend(c, count, dest, tag);
            if (dest == MPI.PROC_NULL) {
                return started(c, Pending.SENT, Operation.Finish.NOTHING, own);
            }
            Transfer t = c.transfer(type);
            Operation o = messageOperation();
            Pending p = c.backend.isend(t.send(t.buffer(buf, count, "buf"), 0, count), dest, tag, sync, o.message());
            return Request.of(o.restart(name, p, Operation.Finish.NOTHING, own));
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, name, e);
        } finally {
            lock.exit();
        }
    }

    /** {@link #bSend}: copied into the attached buffer and sent from there; the request is finished at once. */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonBlocking("ibSend", c -> {
            Messages.checkSend(c, count, dest, tag);
            if (dest != MPI.PROC_NULL) {
                Transfer t = c.transfer(type);
                BufferedSends.send(c, t.send(t.buffer(buf, count, "buf"), 0, count), dest, tag);
            }
            return new Started(Pending.SENT);
        });
    }

    /** Starts {@link #recv}: {@code buf} is railcoll's until the request has finished; its status says what came. */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        Staging own = spareStaging();
        Call c = beginNonBlocking("iRecv", own); // inline on the reusable call, as iSend (decision 0159)
        try {
            Messages.checkRecv(c, count, source, tag);
            if (source == MPI.PROC_NULL) {
                return started(c, Messages.procNullPending(), Operation.Finish.NOTHING, own);
            }
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment area = t.recvArea(b, count);
            Operation o = messageOperation();
            Pending p = c.backend.irecv(area, source, tag, o.message());
            return Request.of(o.restart("iRecv", p, t.inPlace(area, b, 0) ? Operation.Finish.NOTHING
                    : () -> Messages.deliver(t, p.status(), area, b), own));
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, "iRecv", e);
        } finally {
            lock.exit();
        }
    }

    // ---- persistent point-to-point (decision 0185): set up once, each Prequest.start() a round of it

    /**
     * A persistent {@link #iSend}: each {@link Prequest#start()} sends the elements {@code buf} holds then, through
     * one operation and one railcoll persistent request made here.
     */
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend("sendInit", buf, count, type, dest, tag, false);
    }

    /**
     * A persistent {@link #ibSend}: each start copies the elements into memory of the request's own, taking their room
     * in the attached buffer ({@code MPI.ERR_BUFFER} where it has too little), and sends them from there; the round is
     * finished when the start returns (decision 0167).
     */
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        String described = "bSendInit to " + peer(dest) + " (tag " + tag + ") on " + name;
        Start copyOfItsOwn = c -> { // a round whose last message is still in flight: as ibSend
            Messages.checkSend(c, count, dest, tag);
            Transfer t = c.transfer(type);
            BufferedSends.send(c, t.send(t.buffer(buf, count, "buf"), 0, count), dest, tag);
            return new Started(Pending.SENT);
        };
        BufferedPersistentSend[] made = new BufferedPersistentSend[1];
        collective("bSendInit", c -> {
            Messages.checkSend(c, count, dest, tag);
            Transfer t = dest == MPI.PROC_NULL ? null : c.transfer(type); // PROC_NULL: the buffer is not looked at
            UserBuffer b = t == null ? null : t.buffer(buf, count, "buf");
            made[0] = BufferedPersistentSend.of(this, "bSendInit", described, c, b, t, count, dest, tag, copyOfItsOwn);
        });
        sweepDetached();
        return new Prequest(this, described, made[0]);
    }

    /** A persistent {@link #isSend}: each round finishes once the receiver matched that round's message. */
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend("sSendInit", buf, count, type, dest, tag, true);
    }

    /** A persistent {@link #irSend} (a standard send here, as {@link #rSend}). */
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return persistentSend("rSendInit", buf, count, type, dest, tag, false);
    }

    /** A persistent {@link #iRecv}: each start posts a receive into {@code buf}; its status is that round's. */
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        PersistentMessage[] made = new PersistentMessage[1];
        collective("recvInit", c -> {
            Messages.checkRecv(c, count, source, tag);
            Transfer t = source == MPI.PROC_NULL ? null : c.transfer(type); // PROC_NULL: the buffer is not looked at
            UserBuffer b = t == null ? null : t.buffer(buf, count, "buf");
            made[0] = PersistentMessage.recv(this, "recvInit", c, b, t, count, source, tag);
        });
        sweepDetached();
        return new Prequest(this, "recvInit from " + peer(source) + " (tag " + tag + ") on " + name, made[0]);
    }

    /** Checks a persistent send's arguments now (MPI does at set-up) and makes its operation and railcoll's request. */
    private Prequest persistentSend(String call, Buffer buf, int count, Datatype type, int dest, int tag,
                                    boolean synchronous) throws MPIException {
        PersistentMessage[] made = new PersistentMessage[1];
        collective(call, c -> {
            Messages.checkSend(c, count, dest, tag);
            Transfer t = dest == MPI.PROC_NULL ? null : c.transfer(type); // PROC_NULL: the buffer is not looked at
            UserBuffer b = t == null ? null : t.buffer(buf, count, "buf");
            made[0] = PersistentMessage.send(this, call, c, b, t, count, dest, tag, synchronous);
        });
        sweepDetached();
        return new Prequest(this, call + " to " + peer(dest) + " (tag " + tag + ") on " + name, made[0]);
    }

    /**
     * The operation of a persistent request freed while its round was in flight (MPI_Request_free), kept until the
     * round is over: what it sends or receives into stays reachable meanwhile (a node-mate may be reading it by
     * address). Swept whenever another is added and at each persistent set-up; dropped when the communicator goes.
     */
    final void detach(Operation inFlight) {
        sweepDetached();
        detached.add(inFlight);
    }

    private void sweepDetached() {
        if (!detached.isEmpty()) {
            detached.removeIf(Operation::overQuietly);
        }
    }

    /** {@code MPI.check()} and a communicator that is not freed, for a call made outside {@link #collective}. */
    final void usable(String call) throws MPIException {
        live(call);
    }

    private static String peer(int rank) {
        return rank == MPI.PROC_NULL ? "MPI.PROC_NULL" : rank == MPI.ANY_SOURCE ? "any rank" : "rank " + rank;
    }

    /** Waits for a message from {@code source} with {@code tag} (wildcards allowed) and says what it is. */
    public final Status probe(int source, int tag) throws MPIException {
        Status[] got = new Status[1];
        collective("probe", c -> {
            Messages.checkRecv(c, 0, source, tag);
            got[0] = source == MPI.PROC_NULL ? Messages.fromProcNull() : c.backend.probe(source, tag);
        });
        return got[0];
    }

    /** As {@link #probe}, without waiting: null when no such message has arrived. */
    public final Status iProbe(int source, int tag) throws MPIException {
        Status[] got = new Status[1];
        collective("iProbe", c -> {
            Messages.checkRecv(c, 0, source, tag);
            got[0] = source == MPI.PROC_NULL ? Messages.fromProcNull() : c.backend.iprobe(source, tag);
        });
        return got[0];
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
        collective(name, reportTo, null, body);
    }

    /**
     * The start of non-blocking operation {@code name}: {@code body} runs as a call does, with staging memory of the
     * operation's own (which it gives back when it finishes or fails), and what it started becomes the request.
     */
    final Request nonBlocking(String name, Start body) throws MPIException {
        return Request.of(start(name, false, body));
    }

    /**
     * {@link #nonBlocking}, run on the communicator's reusable {@link Call} (its datatypes' transfers and buffers'
     * views remembered, decision 0150): only for starts whose finishing work uses no state of the call (its name
     * changes with the next call), which delivering by a {@link Transfer} and the fold do not.
     */
    final Request nonBlockingOnSharedCall(String name, Start body) throws MPIException {
        return Request.of(start(name, true, body));
    }

    /** The operation {@link #nonBlocking} makes a request of: what a persistent request runs at each start. */
    final Operation start(String name, Start body) throws MPIException {
        return start(name, false, body);
    }

    private Operation start(String name, boolean sharedCall, Start body) throws MPIException {
        Staging own = spareStaging();
        Call c;
        try {
            c = begin(name, this, own, sharedCall);
        } catch (MPIException | RuntimeException e) {
            giveBack(own);
            throw e;
        }
        try {
            Started s = body.run(c);
            return new Operation(this, name, s.pending(), s.finish(), own);
        } catch (MPIException | RuntimeException e) {
            own.close();
            throw fault(this, name, e);
        } finally {
            lock.exit();
        }
    }

    /**
     * {@link #begin} of a non-blocking call inlined in its method (as the blocking hot calls are), on the reusable
     * call with {@code own} as its staging; {@code own} is given back if the call cannot begin. The caller unlocks.
     */
    private Call beginNonBlocking(String name, Staging own) throws MPIException {
        try {
            return begin(name, this, own, true);
        } catch (MPIException | RuntimeException e) {
            giveBack(own);
            throw e;
        }
    }

    /** The request of what call {@code c} started, with the work left for its end and its staging {@code own}. */
    private Request started(Call c, Pending pending, Operation.Finish finish, Staging own) {
        return Request.of(new Operation(this, c.name, pending, finish, own));
    }

    private Request started(Call c, Started s, Staging own) {
        return started(c, s.pending(), s.finish(), own);
    }

    /** A reusable operation of a finished iSend or iRecv, or a new one (decision 0159). */
    private Operation messageOperation() {
        for (int i = 0; i < spareOperations.length(); i++) {
            Operation o = spareOperations.getPlain(i);
            if (o != null && spareOperations.compareAndSet(i, o, null)) {
                return o;
            }
        }
        return new Operation(this);
    }

    /** Takes back a reusable operation its request's wait has reported (see {@link Operation#recycle}). */
    final void reuse(Operation finished) {
        for (int i = 0; i < spareOperations.length(); i++) {
            if (spareOperations.getPlain(i) == null && spareOperations.compareAndSet(i, null, finished)) {
                return;
            }
        }
    }

    /** A staging of a finished non-blocking operation, or a new one (decision 0150). */
    private Staging spareStaging() {
        for (int i = 0; i < spareStagings.length(); i++) {
            Staging s = spareStagings.getPlain(i);
            if (s != null && spareStagings.compareAndSet(i, s, null)) {
                return s;
            }
        }
        return new Staging();
    }

    /**
     * Takes back the staging of a non-blocking operation that has finished or failed (nothing reads or writes it any
     * more): kept for the next one, up to {@link #spareStagings}' length, with its largest region (as this
     * communicator's own staging keeps its); closed when there is no room or the communicator is gone.
     *
     * <p>Against {@link #closeSpareStagings} without a lock: this puts the staging in a slot, then reads whether the
     * communicator is gone; closing marks it gone (a volatile write, before), then empties every slot. Volatile
     * accesses are sequentially consistent, so at least one side sees the other, and whichever empties the slot by
     * compare-and-set closes the staging, once.
     */
    final void giveBack(Staging used) {
        used.reset();
        if (!gone()) {
            for (int i = 0; i < spareStagings.length(); i++) {
                if (spareStagings.getPlain(i) == null && spareStagings.compareAndSet(i, null, used)) {
                    if (gone() && spareStagings.compareAndSet(i, used, null)) {
                        used.close();
                    }
                    return;
                }
            }
        }
        used.close();
    }

    private boolean gone() {
        return freed || backend == null;
    }

    /** Closes the spare stagings (the communicator is being freed or unbound: {@link #gone()} is already true). */
    private void closeSpareStagings() {
        for (int i = 0; i < spareStagings.length(); i++) {
            Staging s = spareStagings.getAndSet(i, null);
            if (s != null) {
                s.close();
            }
        }
    }

    /** What a non-blocking call started, and the work left for when it finishes. */
    record Started(Pending pending, Operation.Finish finish) {
        Started(Pending pending) {
            this(pending, Operation.Finish.NOTHING);
        }
    }

    /** The start of a non-blocking call, run with the call's state. */
    @FunctionalInterface
    interface Start {
        Started run(Call call) throws MPIException;
    }

    /** {@code staging} null: the communicator's own, reset for this call. */
    private void collective(String name, Comm reportTo, Staging own, Body body) throws MPIException {
        Call c = begin(name, reportTo, own, false);
        try {
            body.run(c);
        } catch (MPIException | RuntimeException e) {
            throw fault(reportTo, name, e);
        } finally {
            lock.exit();
        }
    }

    /** {@link #begin(String, Comm, Staging)} of a blocking call whose errors go to this communicator's handler. */
    private Call begin(String name) throws MPIException {
        return begin(name, this, null, false);
    }

    /**
     * Starts call {@code name}: after {@code MPI.check()}, with the call lock taken (the caller unlocks it in a
     * {@code finally} after the call, and hands what it throws to {@link #fault}). A blocking call ({@code own} null)
     * that this thread is not already inside (a user op calling MPI) resets the communicator's staging memory and gets
     * its reusable {@link Call}; the others get a call of their own. The hot collectives (barrier, bcast, gather,
     * scatter, allGather, allToAll, allReduce, reduce, reduceScatterBlock, scan, exScan) run their bodies between this
     * and the unlock, the rest through {@link #collective}: the same steps, with a lambda, which allocates (decision
     * 0136). The hot ones other than barrier first ask the call for a repeat of their last direct call (decision 0212). A non-blocking call ({@code own} its staging) gets the
     * reusable call too where {@code sharedCall} says its finishing work needs nothing of it (decision 0150).
     */
    private Call begin(String name, Comm reportTo, Staging own, boolean sharedCall) throws MPIException {
        Backend b = live(name);
        if (!lock.tryEnter(MPI.threadMultiple())) {
            throw reportTo.raise(name, MPIException.of(MPI.ERR_OTHER, name + " on rank " + b.rank() + " of " + this.name
                    + ": another thread is inside a call on this communicator; calls from several threads at once"
                    + " need MPI.InitThread(args, MPI.THREAD_MULTIPLE)"));
        }
        try {
            boolean nested = lock.nested();
            if (own != null && (!sharedCall || nested)) {
                return Call.once(name, b, own, this);
            }
            if (nested) {
                return Call.once(name, b, staging, this); // nested: the outer call's staging stays in use
            }
            if (own == null) {
                staging.reset();
            }
            Call c = reusable;
            if (c == null || c.backend != b) {
                c = Call.reusable(b, staging, this);
                reusable = c;
            }
            return c.named(name, own == null ? staging : own);
        } catch (RuntimeException e) {
            lock.exit();
            throw fault(reportTo, name, e);
        }
    }

    /**
     * What {@code e}, raised inside call {@code name}, becomes: an MPI error, handed to {@code reportTo}'s error handler
     * and returned to throw if the handler returns; a runtime exception that is no MPI error is rethrown as it is.
     */
    private MPIException fault(Comm reportTo, String name, Exception e) {
        if (e instanceof MPIException m) {
            return reportTo.raise(name, m);
        }
        RuntimeException r = (RuntimeException) e;
        MPIException m = mpiError(name, r);
        if (m == null) {
            throw r;
        }
        return reportTo.raise(name, m);
    }

    /**
     * The MPI error that {@code e}, thrown by railcoll (or a user op) during {@code call}, is (decision 0077); null for
     * an exception that is no MPI error (a bad index, a null datatype), which the caller lets through.
     */
    final MPIException mpiError(String call, RuntimeException e) {
        if (e instanceof Op.UserFunctionFailure f) {
            return (MPIException) f.getCause();
        }
        if (e instanceof OperatorFailedException && e.getCause() instanceof Op.UserFunctionFailure f) {
            return (MPIException) f.getCause();
        }
        int errorClass;
        if (e instanceof io.railcoll.TruncatedMessageException) {
            errorClass = MPI.ERR_TRUNCATE;
        } else if (e instanceof OperatorFailedException) {
            errorClass = MPI.ERR_OP;
        } else if (e instanceof PeerLostException || e instanceof CollectiveAbortedException) {
            errorClass = MPI.ERR_PROC_ABORTED;
        } else if (e instanceof RailcollException || e instanceof IllegalStateException) {
            errorClass = MPI.ERR_OTHER;
        } else if (e instanceof IllegalArgumentException) {
            errorClass = MPI.ERR_ARG;
        } else {
            return null;
        }
        return failed(errorClass, call, e);
    }

    private MPIException failed(int errorClass, String call, RuntimeException e) {
        return MPIException.of(errorClass, call + " on rank " + rankHere + " of " + name + " failed: "
                + e.getMessage(), e);
    }

    /**
     * Runs {@code wait}, a blocking wait of call {@code name} whose arguments a call under the lock has checked,
     * without this communicator's call lock, so that other threads' calls on it go on meanwhile (a matched probe
     * under {@code THREAD_MULTIPLE}, decision 0134); its errors go to the error handler as a call's do.
     */
    final <T> T waitWithoutLock(String name, java.util.function.Function<Backend, T> wait) throws MPIException {
        Backend b = live(name);
        try {
            return wait.apply(b);
        } catch (RuntimeException e) {
            MPIException m = mpiError(name, e);
            if (m == null) {
                throw e;
            }
            throw raise(name, m);
        }
    }

    /** The backend after {@code MPI.check()}, or an {@code MPI.ERR_COMM} error on a freed communicator. */
    private Backend live(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw raise(call, MPIException.of(MPI.ERR_COMM, "invalid communicator: " + call + " on a freed communicator"));
        }
        if (awaitingDup) {
            throw raise(call, MPIException.of(MPI.ERR_COMM, "invalid communicator: " + call + " on " + name + ", made by"
                    + " iDup, whose request has not completed (or failed): wait for or test getRequest() first"));
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
