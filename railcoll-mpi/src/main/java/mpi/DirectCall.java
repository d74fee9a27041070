package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;

import java.lang.foreign.MemorySegment;

/**
 * What a blocking all-gather or all-reduce worked out from its arguments when railcoll moved the program's buffers as
 * they are (contiguous types, memory railcoll reads and writes, nothing staged, nothing to deliver after): the
 * segments it handed to railcoll and, for an all-reduce, railcoll's element type, count and operator. The reusable
 * {@link Call} keeps the last one per collective (decision 0209), so that the next call with the same buffers,
 * counts, datatypes and op goes straight to railcoll.
 *
 * <p>Everything here follows from the arguments alone: a buffer's memory and capacity never change, a datatype's map
 * is immutable and its plans per op are cached anyway. What can change between calls, whether a datatype is still
 * committed and not freed and whether the op is freed, the caller checks again at every call. Immutable; held weakly
 * (it holds the buffers through their segments), as the views are.
 *
 * @param op null for an all-gather; for an all-reduce, {@code sendtype == recvtype} and {@code sendcount == recvcount}
 */
record DirectCall(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype,
                  Op op, MemorySegment send, MemorySegment recv, ElementType elementType, long elements,
                  Operator operator) {

    /** An all-gather's. */
    static DirectCall allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype, MemorySegment send, MemorySegment recv) {
        return new DirectCall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, null, send, recv, null, 0,
                null);
    }

    /** An all-reduce's, by railcoll's {@code operator} on {@code elements} of {@code elementType}. */
    static DirectCall allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, MemorySegment send,
                                MemorySegment recv, ElementType elementType, long elements, Operator operator) {
        return new DirectCall(sendbuf, count, type, recvbuf, count, type, op, send, recv, elementType, elements,
                operator);
    }

    /** Whether this is the all-gather of these arguments. */
    boolean isAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                        Datatype recvtype) {
        return this.sendbuf == sendbuf && this.recvbuf == recvbuf && this.sendcount == sendcount
                && this.recvcount == recvcount && this.sendtype == sendtype && this.recvtype == recvtype;
    }

    /** Whether this is the all-reduce of these arguments. */
    boolean isAllReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return this.sendbuf == sendbuf && this.recvbuf == recvbuf && this.sendcount == count && this.sendtype == type
                && this.op == op;
    }
}
