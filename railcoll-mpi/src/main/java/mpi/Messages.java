package mpi;

import io.railcoll.TruncatedMessageException;

import java.lang.foreign.MemorySegment;

/**
 * The checks and answers every point-to-point method of {@link Comm} shares: ranks, tags and counts (each refusal an
 * {@link MPIException} of the class MPI gives it, naming the call, rank and communicator), {@code MPI.PROC_NULL}'s
 * empty status, and the delivery of a receive's elements into the program's buffer, a truncation included.
 */
final class Messages {
    private Messages() {
    }

    static void checkSend(Call c, int count, int dest, int tag) throws MPIException {
        c.count(count, "count");
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= c.size)) {
            throw c.error(MPI.ERR_RANK, "invalid rank: dest is " + dest + " (the communicator has size " + c.size
                    + "; MPI.PROC_NULL is " + MPI.PROC_NULL + ")");
        }
        if (tag < 0) {
            throw c.error(MPI.ERR_TAG, "invalid tag: " + tag + " (a message's tag is 0 or more)");
        }
    }

    static void checkRecv(Call c, int count, int source, int tag) throws MPIException {
        c.count(count, "count");
        if (source != MPI.PROC_NULL && source != MPI.ANY_SOURCE && (source < 0 || source >= c.size)) {
            throw c.error(MPI.ERR_RANK, "invalid rank: source is " + source + " (the communicator has size " + c.size
                    + "; MPI.ANY_SOURCE is " + MPI.ANY_SOURCE + ", MPI.PROC_NULL " + MPI.PROC_NULL + ")");
        }
        if (tag < 0 && tag != MPI.ANY_TAG) {
            throw c.error(MPI.ERR_TAG, "invalid tag: " + tag + " (0 or more, or MPI.ANY_TAG = " + MPI.ANY_TAG + ")");
        }
    }

    /** A receive from {@code MPI.PROC_NULL}: source PROC_NULL, tag ANY_TAG, nothing received. */
    static Status fromProcNull() {
        return Status.of(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, 0);
    }

    /** A receive from {@code MPI.PROC_NULL}, as a request: finished at once. */
    static Pending procNullPending() {
        return new Pending() {
            @Override
            public boolean test() {
                return true;
            }

            @Override
            public void await() {
            }

            @Override
            public Status status() {
                return fromProcNull();
            }

            @Override
            public boolean cancellable() {
                return true; // point-to-point: finished already, so a cancel comes too late (no error)
            }
        };
    }

    /**
     * Waits for receive {@code p} into {@code area} and delivers its elements to {@code b}; a message longer than the
     * buffer is {@code MPI.ERR_TRUNCATE}, after the whole elements that fit were delivered.
     */
    static Status received(Call c, Transfer t, Pending p, MemorySegment area, UserBuffer b) throws MPIException {
        try {
            p.await();
        } catch (TruncatedMessageException e) {
            deliver(t, e.status().count(), area, b);
            throw c.error(MPI.ERR_TRUNCATE, "message truncated: " + e.getMessage());
        }
        Status s = p.status();
        deliver(t, s, area, b);
        return s;
    }

    /**
     * A blocking receive into {@code area} for {@code b} ({@link Backend#recv}), its elements delivered; a longer
     * message is {@code MPI.ERR_TRUNCATE} after the whole elements that fit are delivered, as {@link #received}.
     */
    static Status receive(Call c, Transfer t, MemorySegment area, UserBuffer b, int source, int tag)
            throws MPIException {
        Status s;
        try {
            s = c.backend.recv(area, source, tag);
        } catch (TruncatedMessageException e) {
            deliver(t, e.status().count(), area, b);
            throw c.error(MPI.ERR_TRUNCATE, "message truncated: " + e.getMessage());
        }
        deliver(t, s, area, b);
        return s;
    }

    /**
     * Delivers a received message of {@code s}'s bytes from {@code area} to {@code b}: its whole elements and the leaves
     * of one it ends inside (decision 0219).
     */
    static void deliver(Transfer t, Status s, MemorySegment area, UserBuffer b) {
        deliver(t, s.bytes(), area, b);
    }

    private static void deliver(Transfer t, long bytes, MemorySegment area, UserBuffer b) {
        t.deliverMessage(area, b, bytes);
    }
}
