package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The rounds of a persistent buffered send ({@code bSendInit}; decision 0167). A buffered send is finished once its
 * elements are copied out of the program's buffer (MPI), so every round's request is finished when its start returns,
 * and the program may change its buffer at once. The copy goes into memory of the request's own, allocated once at
 * set-up, and is sent from there by one persistent send of the backend (railcoll-core's, decision 0088), re-armed
 * each round; its room in the attached buffer ({@link BufferedSends}) is taken at each start and given back once that
 * message has been sent. So a round allocates nothing in this layer.
 *
 * <p>One message of its own memory in flight at a time: a start that finds the last round's message not yet sent
 * (its receiver has not taken it) cannot copy over it, so that round takes the path of {@code ibSend} instead (a
 * fresh copy of its own, allocated), which MPI's semantics allow and which a program that receives what it sends
 * before the next round never takes. The room is checked at every start, as Open MPI does: a message that does not
 * fit is {@code MPI.ERR_BUFFER} through the communicator's error handler, and the round is not started.
 *
 * <p>Used by its {@link Prequest}, one thread at a time; {@link #inFlight} and {@link #current} are read and written
 * under the lock of {@link BufferedSends}, which tests the message from whichever thread sends next.
 */
final class BufferedPersistentSend implements Prequest.Starter, BufferedSends.InFlight {
    private static final Backend.Persistent FINISHED = () -> Pending.SENT;

    private final Comm comm;
    private final String call;
    /** What errors call it: "bSendInit to rank 1 (tag 3) on MPI_COMM_WORLD". */
    private final String name;
    /** Every round's: finished as it starts. */
    private final Operation operation;
    /** A round whose last message is still in flight: as {@code ibSend}. */
    private final Comm.Start copyOfItsOwn;
    /** The backend's persistent send of {@link #staged}; null to {@code MPI.PROC_NULL}. */
    private final Backend.Persistent backend;
    private final UserBuffer user;
    /** The type's map where the elements are packed into {@link #staged}; null where they are copied as they are. */
    private final TypeMap packInto;
    private final MemorySegment staged;
    private final long count;
    private final long bytes;
    /** Its message is in flight, its room taken (under the lock of {@link BufferedSends}). */
    boolean inFlight;
    /** The send of the message in flight (under the lock of {@link BufferedSends}). */
    private Pending current;

    private BufferedPersistentSend(Comm comm, String call, String name, Comm.Start copyOfItsOwn, Backend.Persistent backend,
                                   UserBuffer user, TypeMap packInto, MemorySegment staged, long count, long bytes) {
        this.comm = comm;
        this.call = call;
        this.name = name;
        this.copyOfItsOwn = copyOfItsOwn;
        this.backend = backend;
        this.user = user;
        this.packInto = packInto;
        this.staged = staged;
        this.count = count;
        this.bytes = bytes;
        this.operation = new Operation(comm, call, Pending.DONE, Operation.Finish.NOTHING, null);
    }

    /**
     * The persistent buffered send of {@code count} elements of {@code b} (through {@code t}) to {@code dest}, checked
     * by the caller; {@code copyOfItsOwn} starts a round as {@code ibSend} does.
     */
    static BufferedPersistentSend of(Comm comm, String call, String name, Call c, UserBuffer b, Transfer t, long count, int dest,
                                     int tag, Comm.Start copyOfItsOwn) {
        if (dest == MPI.PROC_NULL) {
            return new BufferedPersistentSend(comm, call, name, copyOfItsOwn, null, null, null, null, 0, 0);
        }
        long bytes = t.bytes(count);
        MemorySegment staged = bytes == 0 ? MemorySegment.ofArray(new byte[0]) : Arena.ofAuto().allocate(bytes, 64);
        return new BufferedPersistentSend(comm, call, name, copyOfItsOwn, c.backend.sendInit(staged, dest, tag, false), b,
                t.landsInPlace(b) ? null : t.type.map, staged, count, bytes);
    }

    @Override
    public Operation start() throws MPIException {
        if (backend != null && !BufferedSends.start(this, bytes)) {
            return comm.start(call, copyOfItsOwn);
        }
        return operation.rearm(FINISHED);
    }

    /** Copies the elements into its own memory and starts their send; under the lock of {@link BufferedSends}. */
    void send() {
        if (packInto != null) {
            packInto.pack(user.memory, 0, count, staged, 0);
        } else {
            MemorySegment.copy(user.memory, 0, staged, 0, bytes);
        }
        current = backend.start();
    }

    /** The communicator's handler's answer to an error of a start of this request. */
    MPIException error(int errorClass, String detail) {
        return comm.raise("start", MPIException.of(errorClass, "start of " + name + ": " + detail));
    }

    @Override
    public boolean finishesAlone() {
        return true; // every round is finished when its start returns
    }

    @Override
    public boolean sent() {
        return current.test();
    }

    @Override
    public void awaitSent() {
        current.await();
    }

    @Override
    public long room() {
        return bytes + MPI.BSEND_OVERHEAD;
    }

    @Override
    public void reclaimed() {
        inFlight = false;
        current = null;
    }
}
