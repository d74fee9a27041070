package mpi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A persistent request: an operation set up once and run by each {@link #start()}, completed by the waits and tests
 * of {@link Request}, after which it is inactive (not null) and may be started again, until {@link #free()}. The
 * bindings make them for point-to-point only ({@code sendInit}, {@code recvInit}, ...; Open MPI 5.0's Java API has no
 * persistent collectives).
 *
 * <p>How a round runs is its {@link Starter}'s: {@code sendInit}, {@code sSendInit}, {@code rSendInit} and
 * {@code recvInit} own one {@link Operation} and one persistent request of the backend ({@link PersistentMessage}:
 * railcoll-core's, decision 0088), made at set-up, which every start re-arms, so a round allocates nothing on a direct
 * buffer (decision 0185); {@code bSendInit}'s ({@link BufferedPersistentSend}) copies into memory of its own and sends
 * it through one such persistent send, its room taken from the attached buffer (decision 0167).
 *
 * <p>Errors: starting an active request, or a freed one (or one listed twice in {@link #startAll}), is
 * {@code MPI.ERR_REQUEST}, naming the call and the request, through its communicator's error handler. {@link #free()}
 * of an active request is MPI_Request_free's: the handle is null at once and the round finishes alone, except where its
 * wait has work left (a receive copied into a heap buffer), which is {@code MPI.ERR_REQUEST} (wait first).
 *
 * <p>Threads: one at a time per request, as MPI has it. The request's state is a word taken by compare-and-set (no
 * monitor, decision 0087): a start claims an inactive request, publishes its round's operation with a release store,
 * and a wait or test that reports the round finished makes it inactive again.
 */
public final class Prequest extends Request {
    /** Runs the rounds of a persistent request. */
    interface Starter {
        /**
         * Starts a round with the arguments given at set-up; the operation its waits and tests drive (the same one
         * every round where the starter owns it).
         */
        Operation start() throws MPIException;

        /**
         * Whether a round in flight may be left to finish alone when the request is freed: false where its wait or
         * test has work to do (delivering a copied receive's elements), which nothing would then do.
         */
        default boolean finishesAlone() {
            return false;
        }
    }

    /** Not started, or its last round reported finished by a wait or test. */
    private static final int INACTIVE = 0;
    /** Claimed by a start (or a startAll) that is starting its round. */
    private static final int STARTING = 1;
    /** Its round started and not yet reported finished. */
    private static final int ACTIVE = 2;
    /** Freed: the handle is null. */
    private static final int FREED = 3;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Prequest.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Comm comm;
    private final String name;
    /** Null once freed (what it holds is released). */
    private Starter starter;
    /** The operation of the round started last; written before the release store that makes the request ACTIVE. */
    private Operation operation;
    /** {@link #INACTIVE}, {@link #STARTING}, {@link #ACTIVE} or {@link #FREED}; through {@link #STATE}. */
    @SuppressWarnings("unused")
    private volatile int state;

    /**
     * An inactive persistent request of {@code comm} (whose error handler its errors go to) that runs {@code starter}
     * at each start; {@code name} names it in errors ("sendInit to rank 1 (tag 3) on MPI_COMM_WORLD").
     */
    Prequest(Comm comm, String name, Starter starter) {
        super(null);
        this.comm = Objects.requireNonNull(comm, "comm");
        this.name = Objects.requireNonNull(name, "name");
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** Starts a round; it must be inactive (completed by a wait or test since the last start). */
    public void start() throws MPIException {
        MPI.check();
        if (!STATE.compareAndSet(this, INACTIVE, STARTING)) {
            throw refusal("start", (int) STATE.getVolatile(this), "");
        }
        run("start");
    }

    /**
     * Starts each of {@code requests}, in order. All are checked first (none null, freed, active or listed twice), so
     * a refusal starts none; a start that fails leaves that request and the ones after it inactive, the ones before it
     * started.
     */
    public static void startAll(Prequest[] requests) throws MPIException {
        MPI.check();
        Objects.requireNonNull(requests, "requests");
        for (int i = 0; i < requests.length; i++) {
            Prequest p = requests[i];
            if (p == null) {
                unclaim(requests, 0, i);
                throw new NullPointerException("startAll: request " + i + " is null");
            }
            if (!STATE.compareAndSet(p, INACTIVE, STARTING)) {
                int seen = (int) STATE.getVolatile(p);
                unclaim(requests, 0, i);
                throw p.refusal("startAll", seen, " (request " + i + " of " + requests.length + ")");
            }
        }
        for (int i = 0; i < requests.length; i++) {
            try {
                requests[i].run("startAll");
            } catch (MPIException | RuntimeException e) {
                unclaim(requests, i + 1, requests.length);
                throw e;
            }
        }
    }

    /** Makes requests {@code [from, to)}, claimed by a startAll that stops, inactive again. */
    private static void unclaim(Prequest[] requests, int from, int to) {
        for (int i = from; i < to; i++) {
            STATE.compareAndSet(requests[i], STARTING, INACTIVE);
        }
    }

    /** The refusal of {@code call} on this request, found in state {@code seen}. */
    private MPIException refusal(String call, int seen, String where) {
        String why = switch (seen) {
            case FREED -> "which was freed";
            case STARTING -> "which is being started already (listed twice in startAll, or started by another thread"
                    + " at once; a request is used by one thread at a time)";
            default -> "which is active (started and not yet completed by a wait or test)";
        };
        return comm.raise(call, MPIException.of(MPI.ERR_REQUEST, "invalid request: " + call + where + " of " + name
                + ", " + why));
    }

    /** Runs the round of this request, claimed by {@code call}: active after, inactive again if it fails. */
    private void run(String call) throws MPIException {
        Operation o;
        try {
            comm.usable(call);
            o = starter.start();
        } catch (MPIException e) {
            STATE.setRelease(this, INACTIVE);
            throw e;
        } catch (RuntimeException e) {
            STATE.setRelease(this, INACTIVE);
            MPIException m = comm.mpiError(call + " of " + name, e);
            if (m == null) {
                throw e;
            }
            throw comm.raise(call, m);
        }
        operation = o;
        STATE.setRelease(this, ACTIVE);
    }

    /**
     * Frees it (MPI_Request_free): nothing if it is null already. An inactive request is released at once. An active
     * one is tested once; if its round has finished it is completed and released; if not, the handle is null at once
     * and the round finishes alone (its communicator keeps it until then, decision 0185), unless its wait has work
     * left (a receive copied into a heap buffer), which is an {@code MPI.ERR_REQUEST} error: wait for it first.
     */
    @Override
    public void free() throws MPIException {
        while (true) {
            int s = (int) STATE.getVolatile(this);
            if (s == FREED) {
                return;
            }
            if (s == STARTING) {
                throw refusal("free", s, "");
            }
            if (s == INACTIVE) {
                if (STATE.compareAndSet(this, INACTIVE, FREED)) {
                    release();
                    return;
                }
                continue;
            }
            MPI.check();
            Operation o = operation;
            boolean over;
            try {
                over = o.test();
            } catch (MPIException | RuntimeException e) {
                completeIfOver(o);
                throw e;
            }
            if (over) {
                completed();
                continue;
            }
            if (!starter.finishesAlone()) {
                throw o.error(MPI.ERR_REQUEST, "invalid request: freeing " + name + " while its round is in flight:"
                        + " its elements are copied into the program's buffer by the wait or test that sees it finish,"
                        + " which nothing would do after free; wait for it (waitFor) first");
            }
            if (STATE.compareAndSet(this, ACTIVE, FREED)) {
                comm.detach(o);
                release();
                return;
            }
        }
    }

    /** Lets go of what the rounds used (its operation, the backend's persistent request, staging of its own). */
    private void release() {
        starter = null;
        operation = null;
    }

    @Override
    Operation active() {
        return (int) STATE.getAcquire(this) == ACTIVE ? operation : null;
    }

    /** A wait or test reported the round finished (or failed): inactive, startable again. */
    @Override
    void completed() {
        STATE.compareAndSet(this, ACTIVE, INACTIVE);
    }

    @Override
    boolean handleIsNull() {
        return (int) STATE.getAcquire(this) == FREED;
    }
}
