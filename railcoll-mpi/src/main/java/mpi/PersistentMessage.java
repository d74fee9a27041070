package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The rounds of a persistent send or receive ({@code sendInit}, {@code sSendInit}, {@code rSendInit},
 * {@code recvInit}; decision 0185): one {@link Operation} and one persistent request of the backend
 * ({@link Backend.Persistent}: railcoll-core's {@code MessageRequest}, decision 0088), both made at set-up. Each start
 * re-arms the operation over the backend's next round, so on a buffer railcoll moves as it is (a contiguous type in a
 * direct buffer or a {@code byte[]}-backed one) a round allocates nothing in this layer.
 *
 * <p>Any other buffer (a heap {@code IntBuffer}, a derived type with gaps) keeps the copy rule of the i-forms, with
 * memory of the request's own, allocated once: a send's elements are packed into it at each start (so the program
 * may change the buffer once the start has returned), a receive's are unpacked from it by the wait or test that sees
 * the round finish. That memory is freed by the garbage collector once nothing refers to it (its request freed and its
 * round over), so no transport is ever left reading or writing memory that was freed under it.
 *
 * <p>Used by its {@link Prequest}, one thread at a time; the operation's state word orders one round's fields from
 * the starting thread to the completing one.
 */
final class PersistentMessage implements Prequest.Starter {
    private final Operation operation;
    private final Backend.Persistent backend;
    /** Starts the backend's round and keeps its pending (what a copied receive's delivery reads the status of). */
    private final Backend.Persistent round;
    /** Where a send's elements are packed at each start; null when the backend sends the program's buffer itself. */
    private final TypeMap packInto;
    private final UserBuffer user;
    private final MemorySegment staged;
    private final long count;
    private final boolean finishesAlone;
    /** The pending of the round started last. */
    private Pending current;

    private PersistentMessage(Comm comm, String call, Backend.Persistent backend, TypeMap packInto, UserBuffer user,
                              MemorySegment staged, long count, Transfer deliverWith) {
        this.backend = backend;
        this.packInto = packInto;
        this.user = user;
        this.staged = staged;
        this.count = count;
        this.finishesAlone = deliverWith == null;
        this.round = () -> current = this.backend.start();
        Operation.Finish finish = deliverWith == null ? Operation.Finish.NOTHING
                : () -> Messages.deliver(deliverWith, current.status(), staged, user);
        this.operation = new Operation(comm, call, Pending.DONE, finish, null);
    }

    /** A persistent standard (or, {@code synchronous}, synchronous) send of {@code buf}'s elements, checked by the caller. */
    static PersistentMessage send(Comm comm, String call, Call c, UserBuffer b, Transfer t, long count, int dest,
                                  int tag, boolean synchronous) {
        if (dest == MPI.PROC_NULL) {
            return new PersistentMessage(comm, call, () -> Pending.SENT, null, b, null, count, null);
        }
        if (t.landsInPlace(b)) {
            MemorySegment data = b.memory.asSlice(0, t.bytes(count));
            return new PersistentMessage(comm, call, c.backend.sendInit(data, dest, tag, synchronous), null, b, data,
                    count, null);
        }
        MemorySegment staged = ownMemory(t.bytes(count));
        return new PersistentMessage(comm, call, c.backend.sendInit(staged, dest, tag, synchronous), t.type.map, b,
                staged, count, null);
    }

    /** A persistent receive into {@code buf}, checked by the caller. */
    static PersistentMessage recv(Comm comm, String call, Call c, UserBuffer b, Transfer t, long count, int source,
                                  int tag) {
        if (source == MPI.PROC_NULL) {
            Pending none = Messages.procNullPending();
            return new PersistentMessage(comm, call, () -> none, null, b, null, count, null);
        }
        if (t.landsInPlace(b)) {
            MemorySegment into = b.memory.asSlice(0, t.bytes(count));
            return new PersistentMessage(comm, call, c.backend.recvInit(into, source, tag), null, b, into, count,
                    null);
        }
        MemorySegment staged = ownMemory(t.bytes(count));
        return new PersistentMessage(comm, call, c.backend.recvInit(staged, source, tag), null, b, staged, count, t);
    }

    /** Native memory of the request's own, freed by the collector once unreachable (see the class comment). */
    private static MemorySegment ownMemory(long bytes) {
        return bytes == 0 ? MemorySegment.ofArray(new byte[0]) : Arena.ofAuto().allocate(bytes, 64);
    }

    @Override
    public Operation start() throws MPIException {
        if (packInto != null) {
            packInto.pack(user.memory, 0, count, staged, 0);
        }
        return operation.rearm(round);
    }

    @Override
    public boolean finishesAlone() {
        return finishesAlone;
    }
}
