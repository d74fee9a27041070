package mpi;

import java.util.Objects;

/**
 * A persistent request: an operation set up once and run by each {@link #start()}, completed by the waits and tests
 * of {@link Request}, after which it is inactive (not null) and may be started again, until {@link #free()}. The
 * bindings make them for point-to-point only ({@code sendInit}, {@code recvInit}, ...; Open MPI 5.0's Java API has no
 * persistent collectives); whoever makes one passes a {@link Starter} that starts the operation anew, with the
 * arguments given at set-up. Starting an active request, or a freed one, is an {@code MPI.ERR_REQUEST} error.
 */
public final class Prequest extends Request {
    /** Starts the operation once more; what a persistent request runs at each {@link #start()}. */
    @FunctionalInterface
    interface Starter {
        Operation start() throws MPIException;
    }

    private final Starter starter;
    private final String name;
    private volatile Operation active;
    private volatile boolean freed;

    /** An inactive persistent request that runs {@code starter} at each start; {@code name} names it in errors. */
    Prequest(String name, Starter starter) {
        super(null);
        this.name = Objects.requireNonNull(name, "name");
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** Starts the operation; it must be inactive (completed by a wait or test since the last start). */
    public void start() throws MPIException {
        MPI.check();
        if (freed || active != null) {
            throw MPI.COMM_WORLD.raise("start", MPIException.of(MPI.ERR_REQUEST, "invalid request: start of " + name
                    + (freed ? ", which was freed" : ", which is active (started and not yet completed by a wait or test)")));
        }
        active = starter.start();
    }

    /** Starts each of {@code requests}, in order. */
    public static void startAll(Prequest[] requests) throws MPIException {
        MPI.check();
        Objects.requireNonNull(requests, "requests");
        for (Prequest p : requests) {
            Objects.requireNonNull(p, "a persistent request in startAll is null").start();
        }
    }

    /** Frees it: it must be inactive (or finished, which a test here finds out). */
    @Override
    public void free() throws MPIException {
        if (freed) {
            return;
        }
        Operation o = active;
        if (o != null) {
            MPI.check();
            if (!o.test()) {
                throw o.error(MPI.ERR_REQUEST, "invalid request: freeing " + name
                        + " while its operation is in flight; wait for it (waitFor) first");
            }
        }
        active = null;
        freed = true;
    }

    @Override
    Operation active() {
        return active;
    }

    @Override
    void completed() {
        active = null;
    }

    @Override
    boolean handleIsNull() {
        return freed;
    }
}
