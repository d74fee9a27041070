package mpi;

import io.railcoll.reduce.Combiners;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.reduce.UserOperator;

import java.lang.foreign.MemorySegment;

/**
 * Maps an ({@link Op}, {@link Datatype}) pair onto railcoll's reductions: which {@link ElementType} the packed data is
 * reduced as, how many of those one datatype element holds, and which {@link Operator} combines them.
 * <ul>
 *   <li>A predefined op on a type whose elements are all one predefined leaf (a predefined type, or one derived
 *       from a single one) runs railcoll's predefined operator on that leaf's element type, with the exceptions the
 *       bindings' semantics need: {@code MPI.BYTE} and {@code MPI.BOOLEAN} are unsigned 8-bit ({@code MIN}/{@code MAX}
 *       through {@link ExtraOperators}), the complex types sum as pairs of floats or doubles and multiply through
 *       {@link ExtraOperators}, and {@code MPI.SHORT_INT}'s MINLOC/MAXLOC too.</li>
 *   <li>A user op runs as a railcoll {@link UserOperator} whose element is one packed datatype element, when a railcoll
 *       type of that size exists (1, 2, 4, 8 or 16 bytes), so that railcoll never splits a datatype element. Other
 *       sizes have no such type: {@link Plan#elementType} is null and the communicator reduces by all-gather and a
 *       local fold in rank order (decision 0076).</li>
 * </ul>
 * Stateless.
 */
final class Reductions {

    /**
     * How to run one reduction: {@code count} datatype elements are {@code count * perItem} elements of
     * {@code elementType} combined by {@code operator}; a null {@code elementType} asks for the fold (user ops only).
     */
    record Plan(ElementType elementType, long perItem, Operator operator) {
        long elements(long count) {
            return Math.multiplyExact(count, perItem);
        }
    }

    private Reductions() {
    }

    /** The plan for {@code op} on {@code type}, or an {@code MPI.ERR_OP} error naming the pair. */
    static Plan plan(Op op, Datatype type, Call call) throws MPIException {
        if (op.isUser()) {
            return userPlan(op, type);
        }
        if (op.predefined == null) {
            throw call.error(MPI.ERR_OP, "invalid reduce operation: " + op.cName
                    + " is for one-sided accumulates only, not for reductions");
        }
        Primitive leaf = type.map.uniformPrimitive();
        if (leaf == null) {
            throw call.error(MPI.ERR_OP, "invalid reduce operation: " + op.cName + " is not defined on "
                    + type.describe() + ", whose elements mix several predefined types");
        }
        long n = type.map.primitiveCount();
        PredefinedOperator p = op.predefined;
        Plan plan = switch (leaf) {
            case BYTE, BOOLEAN -> p == PredefinedOperator.MIN || p == PredefinedOperator.MAX
                    ? new Plan(ElementType.BYTE, n, p == PredefinedOperator.MIN ? ExtraOperators.UINT8_MIN : ExtraOperators.UINT8_MAX)
                    : predefined(ElementType.BYTE, n, p);
            case SHORT_INT -> p == PredefinedOperator.MINLOC || p == PredefinedOperator.MAXLOC
                    ? new Plan(ElementType.INT_INT, n, p == PredefinedOperator.MINLOC ? ExtraOperators.SHORT_INT_MINLOC
                            : ExtraOperators.SHORT_INT_MAXLOC)
                    : null;
            case FLOAT_COMPLEX -> p == PredefinedOperator.SUM ? new Plan(ElementType.FLOAT, 2 * n, p)
                    : p == PredefinedOperator.PROD ? new Plan(ElementType.LONG, n, ExtraOperators.FLOAT_COMPLEX_PROD) : null;
            case DOUBLE_COMPLEX -> p == PredefinedOperator.SUM ? new Plan(ElementType.DOUBLE, 2 * n, p)
                    : p == PredefinedOperator.PROD ? new Plan(ElementType.LONG_INT, n, ExtraOperators.DOUBLE_COMPLEX_PROD)
                    : null;
            case PACKED -> null;
            default -> predefined(leaf.elementType, n, p);
        };
        if (plan == null) {
            throw call.error(MPI.ERR_OP, "invalid reduce operation: " + op.cName + " is not defined on "
                    + type.describe());
        }
        return plan;
    }

    private static Plan predefined(ElementType t, long n, PredefinedOperator p) {
        return Combiners.defined(t, p) ? new Plan(t, n, p) : null;
    }

    private static Plan userPlan(Op op, Datatype type) {
        long bytes = type.map.packedBytes;
        ElementType carrier = bytes == 1 ? ElementType.BYTE : bytes == 2 ? ElementType.SHORT : bytes == 4
                ? ElementType.INT : bytes == 8 ? ElementType.LONG : bytes == 16 ? ElementType.LONG_INT : null;
        return new Plan(carrier, 1, userOperator(op, type));
    }

    /**
     * The railcoll operator that calls {@code op}'s function on whole {@code type} elements (railcoll's element is
     * one packed datatype element). Its id names the function's class, the same on every rank running the same
     * program.
     */
    static UserOperator userOperator(Op op, Datatype type) {
        return new UserOperator(op.userId, op.isCommutative(),
                (MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long count) ->
                        op.invoke(in, inOffset, inout, inoutOffset, count, type));
    }
}
