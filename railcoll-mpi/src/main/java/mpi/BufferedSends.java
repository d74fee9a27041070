package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;

/**
 * The buffer of buffered sends ({@code bSend}, {@code ibSend}, {@code bSendInit}; MPI_Buffer_attach): the program
 * attaches one array per process with {@link MPI#attachBuffer}; each buffered message takes its packed bytes plus
 * {@link MPI#BSEND_OVERHEAD} of it until its send has finished, and a message that does not fit is
 * {@code MPI.ERR_BUFFER}, as MPI says. The message's bytes are copied into memory of railcoll's own (the attached
 * array is the account, not the storage), so the program may reuse its buffer at once: a fresh copy per
 * {@code bSend}, the request's own memory for a {@code bSendInit} ({@link BufferedPersistentSend}, decision 0167).
 * {@link MPI#detachBuffer} and {@code MPI.Finalize} wait until every buffered send has finished.
 *
 * <p>Any thread: one lock for the process, as the attached buffer is the process's (Open MPI's is a mutex too). It
 * guards the account ({@code used}) and the messages in flight; a round of a persistent buffered send takes it once
 * and allocates nothing under it (the list of messages in flight keeps its capacity, entries are removed by index).
 */
final class BufferedSends {
    /** A buffered message in flight: the room it takes until {@link #sent()}. Called under the lock only. */
    interface InFlight {
        /** One test: whether it has been sent (its room may be taken back). Throws railcoll's failure of it. */
        boolean sent();

        /** Waits until it has been sent. */
        void awaitSent();

        /** Bytes of the attached buffer it takes: its packed bytes plus {@link MPI#BSEND_OVERHEAD}. */
        long room();

        /** Its room was taken back (it was sent, failed, or the buffer was drained): no longer in flight. */
        default void reclaimed() {
        }
    }

    /** A {@code bSend} or {@code ibSend}: its copy's send and the room it takes. */
    private record OneMessage(Pending pending, long room) implements InFlight {
        @Override
        public boolean sent() {
            return pending.test();
        }

        @Override
        public void awaitSent() {
            pending.await();
        }
    }

    private static byte[] attached;
    private static long used;
    private static final ArrayList<InFlight> inFlight = new ArrayList<>();

    private BufferedSends() {
    }

    static synchronized void attach(byte[] buffer) throws MPIException {
        if (buffer == null) {
            throw MPIException.of(MPI.ERR_BUFFER, "MPI.attachBuffer: the buffer is null");
        }
        if (attached != null) {
            throw MPIException.of(MPI.ERR_BUFFER, "MPI.attachBuffer: a buffer of " + attached.length + " bytes is"
                    + " attached already; detach it first (MPI allows one per process)");
        }
        attached = buffer;
        used = 0;
    }

    /** Bytes of the attached buffer that messages in flight take, as last accounted (nothing is tested here). */
    static synchronized long roomTaken() {
        return used;
    }

    /** Waits for every buffered send, then hands the attached array back (null when none was attached). */
    static synchronized byte[] detach() {
        drain();
        byte[] b = attached;
        attached = null;
        used = 0;
        return b;
    }

    /** Waits until every buffered send has finished. */
    static synchronized void drain() {
        for (int i = 0; i < inFlight.size(); i++) {
            inFlight.get(i).awaitSent();
        }
        for (int i = 0; i < inFlight.size(); i++) {
            inFlight.get(i).reclaimed();
        }
        inFlight.clear();
        used = 0;
    }

    /** Sends a copy of {@code data} through {@code c}'s backend, its room taken from the attached buffer. */
    static synchronized void send(Call c, MemorySegment data, int dest, int tag) throws MPIException {
        reclaim();
        long room = data.byteSize() + MPI.BSEND_OVERHEAD;
        String noRoom = noRoom(room, data.byteSize());
        if (noRoom != null) {
            throw c.error(MPI.ERR_BUFFER, noRoom);
        }
        MemorySegment copy = MemorySegment.ofArray(data.toArray(ValueLayout.JAVA_BYTE));
        inFlight.add(new OneMessage(c.backend.isend(copy, dest, tag, false), room));
        used += room;
    }

    /**
     * A round of persistent buffered send {@code p}: if its last message has been sent (or it has none in flight),
     * takes its room and runs {@code p.send()} (which copies the elements into its own memory and starts its send),
     * and returns true; false, doing nothing, while its last message is still in flight (its memory still being
     * sent from). The room is checked after its last message's is taken back.
     */
    static synchronized boolean start(BufferedPersistentSend p, long bytes) throws MPIException {
        reclaim();
        if (p.inFlight) {
            return false;
        }
        long room = bytes + MPI.BSEND_OVERHEAD;
        String noRoom = noRoom(room, bytes);
        if (noRoom != null) {
            throw p.error(MPI.ERR_BUFFER, noRoom);
        }
        p.send();
        inFlight.add(p);
        p.inFlight = true;
        used += room;
        return true;
    }

    /** Why a message taking {@code room} does not fit, or null if it does. */
    private static String noRoom(long room, long bytes) {
        if (attached == null) {
            return "invalid buffer: no buffer is attached for buffered sends (MPI.attachBuffer)";
        }
        if (used + room > attached.length) {
            return "invalid buffer: the message needs " + room + " bytes (" + bytes + " + MPI.BSEND_OVERHEAD) of the"
                    + " attached buffer, which has " + (attached.length - used) + " of " + attached.length + " left";
        }
        return null;
    }

    /** Takes back the room of every message sent; a failed one's too, before its failure is thrown. */
    private static void reclaim() {
        for (int i = inFlight.size() - 1; i >= 0; i--) {
            InFlight f = inFlight.get(i);
            boolean sent;
            try {
                sent = f.sent();
            } catch (RuntimeException e) {
                remove(i);
                throw e;
            }
            if (sent) {
                remove(i);
            }
        }
    }

    /** Removes message {@code i} (order does not matter: the last takes its place) and takes its room back. */
    private static void remove(int i) {
        InFlight f = inFlight.get(i);
        int last = inFlight.size() - 1;
        inFlight.set(i, inFlight.get(last));
        inFlight.remove(last);
        used -= f.room();
        f.reclaimed();
    }
}
