package mpi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A communicator's call lock: one thread inside its calls at a time, re-entrant for a call made from inside a call on
 * the same thread (a user op that calls MPI). Below {@code THREAD_MULTIPLE} a second thread is refused at once
 * ({@link #tryEnter} false, which the caller turns into an MPI error); with {@code THREAD_MULTIPLE} callers take
 * their turn in arrival order on a fair lock, as before.
 *
 * <p>Why not a {@link ReentrantLock} alone (decision 0209): its release is a volatile store, a full fence on x86 that
 * waits for the call's stores to shared memory to drain, at the end of every blocking call; at 8 B on one node that
 * made railcoll-mpi's all-gather 1.2-1.3x railcoll's own. Here the way in costs one compare-and-set and the way out a
 * release store (a plain store on x86), as railcoll's own call gate (decision 0205). The fair lock is taken only with
 * {@code THREAD_MULTIPLE}, where callers may have to wait; there its release keeps its fence.
 *
 * <p>Ordering: what a call wrote before {@link #exit} is visible to the next thread whose compare-and-set of
 * {@code owner} succeeds (release, then acquire, on the same field). Threading: any thread.
 */
final class CallLock {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(CallLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Fair, so that a thread waiting for its turn is not overtaken indefinitely; taken only with THREAD_MULTIPLE. */
    private final ReentrantLock turn = new ReentrantLock(true);
    /** The thread inside, or null; written by compare-and-set on the way in and a release store on the way out. */
    @SuppressWarnings("unused") // through OWNER
    private volatile Thread owner;
    /** How deep the thread inside is nested; only that thread touches it. */
    private int depth;
    /** Whether the thread inside took {@link #turn} to get in; only that thread touches it. */
    private boolean tookTurn;

    /**
     * Lets the calling thread in: at once if it is already inside (nested) or nobody is; with {@code threadMultiple},
     * after waiting its turn. False, without waiting, when another thread is inside and {@code threadMultiple} is
     * false: the program broke its thread level.
     */
    boolean tryEnter(boolean threadMultiple) {
        Thread me = Thread.currentThread();
        if (OWNER.getOpaque(this) == me) {
            depth++;
            return true;
        }
        if (threadMultiple) {
            turn.lock();
            acquireAfterTurn(me);
            return true;
        }
        if (!OWNER.compareAndSet(this, (Thread) null, me)) {
            return false;
        }
        depth = 1;
        tookTurn = false;
        return true;
    }

    /**
     * Lets the calling thread in, waiting for any thread inside to leave whatever the thread level: for freeing and
     * unbinding a communicator, which must not pull it from under a call in progress.
     */
    void enter() {
        Thread me = Thread.currentThread();
        if (OWNER.getOpaque(this) == me) {
            depth++;
            return;
        }
        turn.lock();
        acquireAfterTurn(me);
    }

    /**
     * With {@link #turn} held: waits until no thread is inside. Every thread that waits holds the turn, so the one
     * inside got in without it (below THREAD_MULTIPLE, where waiting is rare and short: freeing during a call); its
     * release is a plain store nobody signals, so this polls, backing off to sleeps of at most 50 us.
     */
    private void acquireAfterTurn(Thread me) {
        int spins = 0;
        while (!OWNER.compareAndSet(this, (Thread) null, me)) {
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(Math.min(50_000L, 1_000L * (spins - 99)));
            }
        }
        depth = 1;
        tookTurn = true;
    }

    /** Whether the calling thread is inside a call that it entered from inside another (a user op calling MPI). */
    boolean nested() {
        return depth > 1;
    }

    /** Lets the calling thread out of the call it entered last. */
    void exit() {
        if (--depth == 0) {
            boolean release = tookTurn;
            OWNER.setRelease(this, (Thread) null);
            if (release) {
                turn.unlock();
            }
        }
    }
}
