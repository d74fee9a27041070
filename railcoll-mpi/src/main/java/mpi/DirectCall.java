package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;

/**
 * What a blocking collective worked out from its arguments when railcoll moved the program's buffers as they are
 * (contiguous types, memory railcoll reads and writes, nothing staged, nothing to deliver after): its arguments (the
 * key) and the segments it handed to railcoll with, for a reduction, railcoll's element type, element count and
 * operator (the value). The reusable {@link Call} keeps the last one per {@link Kind} (decisions 0209, 0212), so that
 * the next call of that kind with the same arguments goes straight to railcoll.
 *
 * <p>The key is every argument the call's result depends on on this rank: the buffers by identity, the counts, the
 * datatypes and the op by identity, the root; the form (in place or not) is the kind. An argument that a rank ignores
 * (a non-root's receive arguments of a gather, say) is left out of the key on that rank as 0 or null, at both the
 * look-up and the remembering, since the full path neither checks it nor uses it. Everything in the value follows
 * from the key alone: a buffer's memory and capacity never change, a datatype's map is immutable and its plans per op
 * are cached anyway, the rank and size are the call's. What can change between calls, whether a datatype is still
 * committed and not freed and whether the op is freed, {@link Call#repeatedMove}/{@link Call#repeatedReduction} check
 * again at every hit.
 *
 * <p>Mutable, so that a loop alternating between argument sets refills the entry instead of allocating one per call;
 * held weakly (it holds the buffers, directly and through their segments), as the buffer views are: it goes at a
 * collection and is made again at the next call of its kind. Used only by the reusable call, under the call lock.
 */
final class DirectCall {

    /**
     * The blocking collective forms that go straight to railcoll when repeated; each has its own slot, so that a loop
     * mixing collectives keeps each one's last call.
     */
    enum Kind {
        ALL_GATHER, ALL_GATHER_IN_PLACE, ALL_TO_ALL, BCAST, GATHER, SCATTER,
        ALL_REDUCE, ALL_REDUCE_IN_PLACE, REDUCE, REDUCE_IN_PLACE, REDUCE_SCATTER_BLOCK,
        REDUCE_SCATTER_BLOCK_IN_PLACE, SCAN, SCAN_IN_PLACE, EX_SCAN, EX_SCAN_IN_PLACE
    }

    // The key. For a one-buffer form (bcast, in place) the buffer is the send side and the receive side is unused.
    private Object sendbuf;
    private int sendcount;
    private Datatype sendtype;
    private Object recvbuf;
    private int recvcount;
    private Datatype recvtype;
    private Op op;
    private int root;

    // The value.
    /** The segment railcoll sent from (for an in-place all-gather: this rank's block in the buffer, copied first). */
    private MemorySegment send;
    /** The segment railcoll received into; null where this rank receives nothing. */
    private MemorySegment recv;
    /** For a reduction, railcoll's element type, element count and operator; else null, 0, null. */
    private ElementType elementType;
    private long elements;
    private Operator operator;

    /** Whether this entry is the call of these arguments (0 and null for those the call's rank ignores). */
    boolean is(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, Op op,
               int root) {
        return this.sendbuf == sendbuf && this.recvbuf == recvbuf && this.sendcount == sendcount
                && this.recvcount == recvcount && this.sendtype == sendtype && this.recvtype == recvtype
                && this.op == op && this.root == root;
    }

    /** Makes this entry the call of these arguments, which railcoll ran on {@code send} and {@code recv}. */
    void set(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, Op op,
             int root, MemorySegment send, MemorySegment recv, ElementType elementType, long elements,
             Operator operator) {
        this.sendbuf = sendbuf;
        this.sendcount = sendcount;
        this.sendtype = sendtype;
        this.recvbuf = recvbuf;
        this.recvcount = recvcount;
        this.recvtype = recvtype;
        this.op = op;
        this.root = root;
        this.send = send;
        this.recv = recv;
        this.elementType = elementType;
        this.elements = elements;
        this.operator = operator;
    }

    Datatype sendtype() {
        return sendtype;
    }

    Datatype recvtype() {
        return recvtype;
    }

    MemorySegment send() {
        return send;
    }

    MemorySegment recv() {
        return recv;
    }

    ElementType elementType() {
        return elementType;
    }

    long elements() {
        return elements;
    }

    Operator operator() {
        return operator;
    }
}
