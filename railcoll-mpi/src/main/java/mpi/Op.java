package mpi;

import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction operation: one of the predefined {@code MPI.MAX ... MPI.NO_OP}, or a user operation over a
 * {@link UserFunction}. Every reduction passes this op the very {@link Datatype} object its caller passed, and the
 * user function receives it. As in the bindings, a user op is "null" ({@link #isNull()}) until its first use and
 * after {@link #free()}. How ops map onto railcoll's operators: {@link Reductions}.
 */
public final class Op implements Freeable {
    /** The C name, for messages. */
    final String cName;
    /** The railcoll operator of a predefined op; null for REPLACE, NO_OP and user ops. */
    final PredefinedOperator predefined;
    /** The railcoll operator id of a user op: its function's class, the same on every rank. */
    final String userId;
    private final UserFunction function;
    private final boolean commute;
    private boolean used;
    private boolean freed;

    Op(String cName, PredefinedOperator predefined) {
        this.cName = cName;
        this.predefined = predefined;
        this.userId = null;
        this.function = null;
        this.commute = true;
    }

    public Op(UserFunction function, boolean commute) {
        this.cName = "a user op (" + function.getClass().getName() + ")";
        this.predefined = null;
        this.userId = "mpi.user:" + function.getClass().getName();
        this.function = function;
        this.commute = commute;
    }

    public boolean isCommutative() {
        return commute;
    }

    /** Frees a user op (it is null afterwards); freeing a predefined op is an {@code MPI.ERR_OP} error. */
    public void free() throws MPIException {
        if (function == null) {
            MPI.check();
            throw MPI.COMM_WORLD.raise("Op.free", MPIException.of(MPI.ERR_OP, "invalid reduce operation: the predefined "
                    + cName + " cannot be freed"));
        }
        freed = true;
    }

    public boolean isNull() {
        return function != null && (!used || freed);
    }

    boolean isUser() {
        return function != null;
    }

    boolean isFreed() {
        return freed;
    }

    /** Marks the op as used by a reduction (a user op is no longer null), as the bindings do on first use. */
    void markUsed() {
        if (!used) { // a predefined op is shared by every communicator and thread: no store per call to its line
            used = true;
        }
    }

    /**
     * Runs the user function on {@code items} elements of {@code type}, {@code in} and {@code inOut} holding them
     * packed (as railcoll moves them) from the given offsets; the result replaces {@code inOut}'s. The function sees
     * them as the bindings show them: direct native-order buffers laid out by {@code type} (gaps included), or
     * {@code boolean[]} for {@code BOOLEAN} data. An {@link MPIException} it throws leaves wrapped in an
     * {@link UserFunctionFailure}, which the communicator unwraps.
     */
    void invoke(MemorySegment in, long inOffset, MemorySegment inOut, long inOutOffset, long items, Datatype type) {
        int count = Math.toIntExact(items);
        TypeMap map = type.map;
        long packed = items * map.packedBytes;
        // count * extent bytes, as the bindings show them, unless the data runs past that (a type whose lower bound is
        // above 0, such as a struct whose first block is not at byte 0): then up to its last byte, in whole base
        // units, so that the function sees every element whole (decision 0216, bug 1).
        long layoutBytes = Math.max(items * map.extent(), map.endByte(items));
        layoutBytes = (layoutBytes + type.baseType.bytes - 1) / type.baseType.bytes * type.baseType.bytes;
        try (Arena arena = Arena.ofConfined()) {
            boolean direct = map.contiguous() && in.isNative() && inOut.isNative();
            MemorySegment a = direct ? in.asSlice(inOffset, packed) : arena.allocate(Math.max(1, layoutBytes), 8);
            MemorySegment b = direct ? inOut.asSlice(inOutOffset, packed) : arena.allocate(Math.max(1, layoutBytes), 8);
            if (!direct) {
                map.unpack(in, inOffset, items, a, 0);
                map.unpack(inOut, inOutOffset, items, b, 0);
            }
            if (type.baseType == BaseType.BOOLEAN) {
                int n = Math.toIntExact(layoutBytes);
                boolean[] x = new boolean[n];
                boolean[] y = new boolean[n];
                for (int i = 0; i < n; i++) {
                    x[i] = a.get(ValueLayout.JAVA_BYTE, i) != 0;
                    y[i] = b.get(ValueLayout.JAVA_BYTE, i) != 0;
                }
                function.call(x, y, count, type);
                for (int i = 0; i < n; i++) {
                    b.set(ValueLayout.JAVA_BYTE, i, (byte) (y[i] ? 1 : 0));
                }
            } else {
                ByteBuffer x = a.asSlice(0, layoutBytes).asByteBuffer().order(ByteOrder.nativeOrder());
                ByteBuffer y = b.asSlice(0, layoutBytes).asByteBuffer().order(ByteOrder.nativeOrder());
                function.call(x, y, count, type);
            }
            if (!direct) {
                map.pack(b, 0, items, inOut, inOutOffset);
            }
        } catch (MPIException e) {
            throw new UserFunctionFailure(e);
        }
    }

    /** Carries a user function's {@link MPIException} through railcoll's combine, which takes no checked exception. */
    static final class UserFunctionFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UserFunctionFailure(MPIException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
