package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The blocking neighbourhood collectives of a {@link CartComm} (MPI_Neighbor_allgather, _allgatherv, _alltoall,
 * _alltoallv), over point-to-point on a communicator of their own (a dup made by the first of them, so they never
 * match the program's messages). A Cartesian process has {@code 2n} neighbours, in MPI's order: for each dimension
 * {@code d} the one below ({@code shift(d, 1)}'s source, slot {@code 2d}) then the one above (its destination, slot
 * {@code 2d + 1}); {@code MPI.PROC_NULL} off a non-periodic edge, whose receive block is left as it is. What a
 * process sends to its upper neighbour lands in that one's lower slot and the other way round, told apart by tag, so
 * a periodic dimension of 1 or 2 processes (both neighbours the same process) works as MPI defines it.
 */
final class CartNeighbours {
    /** Where one slot's data is: a buffer (already at its offset), a count and a datatype. */
    record Part(Object buf, int count, Datatype type) {
    }

    /** The part of slot {@code i}. */
    @FunctionalInterface
    interface Parts {
        Part of(int slot) throws MPIException;
    }

    private CartNeighbours() {
    }

    /** Sends {@code send.of(i)} to neighbour {@code i} and receives {@code recv.of(i)} from it, for every slot. */
    static void exchange(CartComm cart, Intracomm halo, int dims, Parts send, Parts recv) throws MPIException {
        for (int d = 0; d < dims; d++) {
            ShiftParms s = cart.shift(d, 1);
            Part up = send.of(2 * d + 1);
            Part fromBelow = recv.of(2 * d);
            halo.sendRecv(up.buf(), up.count(), up.type(), s.getRankDest(), 2 * d,
                    fromBelow.buf(), fromBelow.count(), fromBelow.type(), s.getRankSource(), 2 * d);
            Part down = send.of(2 * d);
            Part fromAbove = recv.of(2 * d + 1);
            halo.sendRecv(down.buf(), down.count(), down.type(), s.getRankSource(), 2 * d + 1,
                    fromAbove.buf(), fromAbove.count(), fromAbove.type(), s.getRankDest(), 2 * d + 1);
        }
    }

    /**
     * {@code buf} from {@code extents} extents of {@code type} on (the bindings' offsets: a heap or direct buffer is
     * sliced, an array becomes a heap buffer over it as {@code MPI.slice} makes); {@code buf} itself at offset 0.
     */
    static Object at(Comm comm, String call, Object buf, Datatype type, int extents) throws MPIException {
        long units = (long) extents * type.getExtent();
        if (units == 0 || buf == null) {
            return buf;
        }
        if (units < 0 || units > Integer.MAX_VALUE) {
            throw comm.raise(call, MPIException.of(MPI.ERR_ARG, call + ": displacement of " + extents
                    + " extents is out of range"));
        }
        int off = (int) units;
        return switch (buf) {
            case Buffer b -> slice(comm, call, b, (long) off * type.baseType.bytes);
            case byte[] a -> MPI.slice(a, off);
            case char[] a -> MPI.slice(a, off);
            case short[] a -> MPI.slice(a, off);
            case int[] a -> MPI.slice(a, off);
            case long[] a -> MPI.slice(a, off);
            case float[] a -> MPI.slice(a, off);
            case double[] a -> MPI.slice(a, off);
            default -> throw comm.raise(call, MPIException.of(MPI.ERR_BUFFER, "invalid buffer: " + call + " takes a "
                    + buf.getClass().getSimpleName() + " only at offset 0; use a direct ByteBuffer for BOOLEAN"));
        };
    }

    private static Buffer slice(Comm comm, String call, Buffer b, long bytes) throws MPIException {
        int unit = switch (b) {
            case ByteBuffer x -> 1;
            case java.nio.CharBuffer x -> 2;
            case java.nio.ShortBuffer x -> 2;
            case java.nio.IntBuffer x -> 4;
            case java.nio.FloatBuffer x -> 4;
            default -> 8;
        };
        if (bytes % unit != 0 || bytes / unit > b.capacity()) {
            throw comm.raise(call, MPIException.of(MPI.ERR_BUFFER, "invalid buffer: " + call + ": byte offset "
                    + bytes + " is not a whole element of a buffer of " + unit + "-byte elements and capacity "
                    + b.capacity()));
        }
        int index = (int) (bytes / unit);
        Buffer s = b.slice(index, b.capacity() - index);
        return s instanceof ByteBuffer bb ? bb.order(ByteOrder.nativeOrder()) : s;
    }

    /** An {@code MPI.ERR_ARG} error unless {@code counts} has one entry per neighbour. */
    static void perNeighbour(Comm comm, String call, String what, int[] counts, int neighbours) throws MPIException {
        if (counts == null || counts.length != neighbours) {
            throw comm.raise(call, MPIException.of(MPI.ERR_ARG, call + ": " + what + " must have " + neighbours
                    + " entries, one per neighbour, not " + (counts == null ? "null" : counts.length)));
        }
    }
}
