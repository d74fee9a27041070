package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * A matched probe's handle (MPI_Message): {@link #mProbe} or {@link #imProbe} takes a message out of matching and
 * binds it here, so that no other receive or probe, of this thread or another, can take it; {@link #mRecv} or
 * {@link #imRecv} then receives it, and the handle is null again. This is how a program learns a message's size and
 * receives that very message when several threads receive on one communicator (a {@code probe} then a {@code recv}
 * can receive another thread's message). Over railcoll-core's {@code Communicator.mprobe} (decision 0105).
 *
 * <p>A new {@code Message} is null. Probing {@code MPI.PROC_NULL} gives the no-proc message ({@link #isNoProc()}),
 * whose receive finishes at once with source {@code PROC_NULL}, tag {@code ANY_TAG} and count 0. Receiving a null
 * message, or probing again while a message is bound and not received (which would lose it), is an
 * {@code MPI.ERR_REQUEST} error. Threads: one at a time per {@code Message}; the matching itself is safe under
 * {@code MPI.THREAD_MULTIPLE}.
 */
public final class Message {
    /** The communicator of the bound message (or of the no-proc message); null while null. */
    private Comm comm;
    /** The bound message; null while null or no-proc. */
    private Backend.Matched matched;
    private boolean noProc;

    /** A null message. Needs no {@code MPI.Init}. */
    public Message() {
    }

    /** True until a probe binds a message (or the no-proc message), and again once it was received. */
    public boolean isNull() {
        return matched == null && !noProc;
    }

    /** True after probing {@code MPI.PROC_NULL}, until the no-proc message is received. */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * Waits for a message from {@code source} ({@code MPI.ANY_SOURCE}) with {@code tag} ({@code MPI.ANY_TAG}) on
     * {@code comm}, takes it out of matching and binds it here; returns its status (source, tag, count).
     */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        return probe("mProbe", source, tag, comm, true);
    }

    /** As {@link #mProbe}, without waiting: null, and this message left as it was, when no such message has arrived. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        return probe("imProbe", source, tag, comm, false);
    }

    private Status probe(String name, int source, int tag, Comm on, boolean wait) throws MPIException {
        MPI.check();
        java.util.Objects.requireNonNull(on, name + ": the communicator");
        Status[] got = new Status[1];
        on.collective(name, c -> {
            Messages.checkRecv(c, 0, source, tag);
            if (matched != null) {
                Status held = matched.status();
                throw c.error(MPI.ERR_REQUEST, "invalid request: this Message still holds the message from rank "
                        + held.getSource() + " (tag " + held.getTag() + ", " + held.bytes() + " bytes) that an earlier"
                        + " probe took; receive it (mRecv, imRecv) first, or it would be lost");
            }
            if (source == MPI.PROC_NULL) {
                bind(on, null, true);
                got[0] = Messages.fromProcNull();
                return;
            }
            if (wait && MPI.threadMultiple()) {
                return; // waits below, without the communicator's lock
            }
            Backend.Matched m = wait ? c.backend.mprobe(source, tag) : c.backend.improbe(source, tag);
            if (m != null) {
                bind(on, m, false);
                got[0] = m.status();
            }
        });
        if (got[0] == null && wait && MPI.threadMultiple()) {
            // Other threads' calls on this communicator go on while this one waits (decision 0134); railcoll's
            // thread-safe matched probe likewise waits between its rounds outside its own gate.
            Backend.Matched m = on.waitWithoutLock(name, b -> b.mprobe(source, tag));
            bind(on, m, false);
            got[0] = m.status();
        }
        return got[0];
    }

    /**
     * Receives the bound message into {@code buf} (up to {@code count} elements of {@code type}; buffers as for
     * {@code Comm.recv}); the handle is null afterwards. A longer message is {@code MPI.ERR_TRUNCATE}, after the whole
     * elements that fit were received.
     */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Comm on = bound("mRecv");
        Status[] got = new Status[1];
        on.collective("mRecv", c -> {
            c.count(count, "count");
            if (noProc) {
                bind(null, null, false);
                got[0] = Messages.fromProcNull();
                return;
            }
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment area = t.recvArea(b, count);
            Backend.Matched m = matched;
            bind(null, null, false); // received from now on, whatever the outcome
            got[0] = Messages.received(c, t, m.irecv(area), area, b);
        });
        return got[0];
    }

    /** Starts {@link #mRecv}: {@code buf} is railcoll's until the request has finished; the handle is null at once. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        Comm on = bound("imRecv");
        return on.nonBlocking("imRecv", c -> {
            c.count(count, "count");
            if (noProc) {
                bind(null, null, false);
                return new Comm.Started(Messages.procNullPending());
            }
            Transfer t = c.transfer(type);
            UserBuffer b = t.buffer(buf, count, "buf");
            MemorySegment area = t.recvArea(b, count);
            Backend.Matched m = matched;
            bind(null, null, false);
            Pending p = m.irecv(area);
            return new Comm.Started(p, () -> Messages.deliver(t, p.status(), area, b));
        });
    }

    /** The communicator of the bound message, or an {@code MPI.ERR_REQUEST} error for a null one. */
    private Comm bound(String call) throws MPIException {
        MPI.check();
        if (isNull()) {
            throw MPI.COMM_WORLD.raise(call, MPIException.of(MPI.ERR_REQUEST, "invalid request: " + call
                    + " of a null Message; bind a message with mProbe or imProbe first (each binds one message, which"
                    + " one receive takes)"));
        }
        return comm;
    }

    private void bind(Comm on, Backend.Matched m, boolean procNull) {
        comm = on;
        matched = m;
        noProc = procNull;
    }
}
