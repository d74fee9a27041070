package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The buffer of buffered sends ({@code bSend}, {@code ibSend}; MPI_Buffer_attach): the program attaches one array
 * per process with {@link MPI#attachBuffer}; each buffered message takes its packed bytes plus
 * {@link MPI#BSEND_OVERHEAD} of it until its send has finished, and a message that does not fit is
 * {@code MPI.ERR_BUFFER}, as MPI says. The message's bytes are copied into memory of railcoll's own (the attached
 * array is the account, not the storage), so the program may reuse its buffer at once. {@link MPI#detachBuffer} and
 * {@code MPI.Finalize} wait until every buffered send has finished. Any thread (one lock for the process).
 */
final class BufferedSends {
    /** A buffered send in flight: its operation and the room it takes. */
    private record InFlight(Pending pending, long room) {
    }

    private static byte[] attached;
    private static long used;
    private static final List<InFlight> inFlight = new ArrayList<>();

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
        for (InFlight f : inFlight) {
            f.pending.await();
        }
        inFlight.clear();
        used = 0;
    }

    /** Sends a copy of {@code data} through {@code c}'s backend, its room taken from the attached buffer. */
    static synchronized void send(Call c, MemorySegment data, int dest, int tag) throws MPIException {
        for (Iterator<InFlight> it = inFlight.iterator(); it.hasNext(); ) {
            InFlight f = it.next();
            if (f.pending.test()) {
                it.remove();
                used -= f.room;
            }
        }
        long room = data.byteSize() + MPI.BSEND_OVERHEAD;
        if (attached == null) {
            throw c.error(MPI.ERR_BUFFER, "invalid buffer: no buffer is attached for buffered sends"
                    + " (MPI.attachBuffer)");
        }
        if (used + room > attached.length) {
            throw c.error(MPI.ERR_BUFFER, "invalid buffer: the message needs " + room + " bytes (" + data.byteSize()
                    + " + MPI.BSEND_OVERHEAD) of the attached buffer, which has " + (attached.length - used) + " of "
                    + attached.length + " left");
        }
        MemorySegment copy = MemorySegment.ofArray(data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        inFlight.add(new InFlight(c.backend.isend(copy, dest, tag, false), room));
        used += room;
    }
}
