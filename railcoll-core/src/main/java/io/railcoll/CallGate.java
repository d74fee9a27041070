package io.railcoll;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The thread contract of one communicator (decision 0042). One thread at a time by default: a thread that calls in
 * while another is inside is refused with an {@link IllegalStateException} naming both, before it touches anything.
 * Thread-safe ({@code RAILCOLL_THREAD_SAFE=on}): a fair lock lets callers in one at a time, in the order they
 * arrived, so any thread may start and complete collectives; the program must still make every rank call them in
 * the same order (as MPI requires of {@code MPI_THREAD_MULTIPLE} programs).
 *
 * <p>A call made from inside a call on the same thread (an overload handing on to another) passes through.
 * Threading: any thread. Lifetime: the communicator's.
 *
 * <p>Every call passes here twice, so the way in costs one compare-and-set and the way out none: the names and the
 * release of {@code inside} are release stores (plain stores on x86), not volatile ones, each of which is a full
 * fence that waits for the call's stores to shared lines to drain (issue 21). A lock's release needs no more.
 */
final class CallGate {
    private static final VarHandle INSIDE_CALL;
    private static final VarHandle INSIDE_PART;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            INSIDE_CALL = l.findVarHandle(CallGate.class, "insideCall", String.class);
            INSIDE_PART = l.findVarHandle(CallGate.class, "insidePart", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Fair, so a thread waiting for its turn is not overtaken indefinitely; null unless thread-safe. */
    private final ReentrantLock turn;
    private final int rank;
    private final AtomicReference<Thread> inside = new AtomicReference<>();
    /** What the thread inside called ({@code insideCall + insidePart}), for the refusal's message. */
    private volatile String insideCall = "";
    private volatile String insidePart = "";
    /** Nesting depth of the thread inside; only that thread touches it. */
    private int depth;

    CallGate(int rank, boolean threadSafe) {
        this.rank = rank;
        this.turn = threadSafe ? new ReentrantLock(true) : null;
    }

    boolean threadSafe() {
        return turn != null;
    }

    /**
     * Lets the calling thread in for {@code call} (its name, for messages), waiting for its turn when thread-safe.
     *
     * @throws IllegalStateException when another thread is inside and the communicator is not thread-safe
     */
    void enter(String call) {
        enter(call, "");
    }

    /**
     * As {@link #enter(String)} for the call named {@code call + part} ("iallgather" and ".await"): the name is only
     * joined when a refusal needs it, so a call allocates nothing here.
     */
    void enter(String call, String part) {
        Thread me = Thread.currentThread();
        if (inside.get() == me) {
            depth++;
            return;
        }
        if (turn != null) {
            turn.lock();
        }
        if (!inside.compareAndSet(null, me)) {
            Thread other = inside.get();
            String otherCall = insideCall + insidePart;
            if (turn != null) {
                turn.unlock();
            }
            throw new IllegalStateException("rank " + rank + ": thread '" + me.getName() + "' called " + call + part
                    + " while thread '" + (other == null ? "?" : other.getName()) + "' is inside " + otherCall
                    + ": a communicator is used by one thread at a time unless it is thread-safe"
                    + " (RAILCOLL_THREAD_SAFE=on, Config.withThreadSafe(true))");
        }
        INSIDE_CALL.setRelease(this, call);
        INSIDE_PART.setRelease(this, part);
        depth = 1;
    }

    /** Lets the calling thread out of the call it entered last. */
    void exit() {
        if (--depth == 0) {
            INSIDE_CALL.setRelease(this, "");
            INSIDE_PART.setRelease(this, "");
            inside.setRelease(null);
            if (turn != null) {
                turn.unlock();
            }
        }
    }
}
