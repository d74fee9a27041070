package io.railcoll.reduce;

import java.util.EnumMap;
import java.util.Map;

/**
 * Which (element type, operator) pairs are defined, and the {@link Combiner} for each (the table is in
 * {@link PredefinedOperator}). The predefined combiners are made once, when this class loads. Where the JVM runs
 * with {@code --add-modules jdk.incubator.vector}, every predefined operator but MINLOC and MAXLOC combines with the
 * Vector API ({@link VectorCombiners}, decisions 0210 and 0213), the pairs with the staged loops; without the module
 * nothing of the Vector API is loaded. Thread-safe.
 */
public final class Combiners {

    /** Whether this JVM resolved the Vector API's module (it is an incubator module: only when asked for). */
    private static final boolean VECTOR_API = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    private static final Map<ElementType, Map<PredefinedOperator, Combiner>> TABLE = new EnumMap<>(ElementType.class);
    /** The staged loops of every pair, whichever {@link #TABLE} uses: for the tests and the benchmark to compare. */
    private static final Map<ElementType, Map<PredefinedOperator, Combiner>> STAGED = new EnumMap<>(ElementType.class);

    static {
        define(ElementType.BYTE, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::sum));
        define(ElementType.BYTE, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::prod));
        define(ElementType.BYTE, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::min));
        define(ElementType.BYTE, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::max));
        define(ElementType.BYTE, PredefinedOperator.BAND,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::band));
        define(ElementType.BYTE, PredefinedOperator.BOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::bor));
        define(ElementType.BYTE, PredefinedOperator.BXOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::bxor));
        define(ElementType.BYTE, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::land));
        define(ElementType.BYTE, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lor));
        define(ElementType.BYTE, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lxor));

        define(ElementType.SHORT, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::sum));
        define(ElementType.SHORT, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::prod));
        define(ElementType.SHORT, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::min));
        define(ElementType.SHORT, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::max));
        define(ElementType.SHORT, PredefinedOperator.BAND,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::band));
        define(ElementType.SHORT, PredefinedOperator.BOR,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::bor));
        define(ElementType.SHORT, PredefinedOperator.BXOR,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::bxor));
        define(ElementType.SHORT, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::land));
        define(ElementType.SHORT, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::lor));
        define(ElementType.SHORT, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.shorts(in, a, io, b, n, ShortLoops::lxor));

        define(ElementType.CHAR, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::sum));
        define(ElementType.CHAR, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::prod));
        define(ElementType.CHAR, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::min));
        define(ElementType.CHAR, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::max));
        define(ElementType.CHAR, PredefinedOperator.BAND,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::band));
        define(ElementType.CHAR, PredefinedOperator.BOR,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::bor));
        define(ElementType.CHAR, PredefinedOperator.BXOR,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::bxor));
        define(ElementType.CHAR, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::land));
        define(ElementType.CHAR, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::lor));
        define(ElementType.CHAR, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.chars(in, a, io, b, n, CharLoops::lxor));

        define(ElementType.INT, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::sum));
        define(ElementType.INT, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::prod));
        define(ElementType.INT, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::min));
        define(ElementType.INT, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::max));
        define(ElementType.INT, PredefinedOperator.BAND,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::band));
        define(ElementType.INT, PredefinedOperator.BOR,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::bor));
        define(ElementType.INT, PredefinedOperator.BXOR,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::bxor));
        define(ElementType.INT, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::land));
        define(ElementType.INT, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::lor));
        define(ElementType.INT, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.ints(in, a, io, b, n, IntLoops::lxor));

        define(ElementType.LONG, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::sum));
        define(ElementType.LONG, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::prod));
        define(ElementType.LONG, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::min));
        define(ElementType.LONG, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::max));
        define(ElementType.LONG, PredefinedOperator.BAND,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::band));
        define(ElementType.LONG, PredefinedOperator.BOR,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::bor));
        define(ElementType.LONG, PredefinedOperator.BXOR,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::bxor));
        define(ElementType.LONG, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::land));
        define(ElementType.LONG, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::lor));
        define(ElementType.LONG, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.longs(in, a, io, b, n, LongLoops::lxor));

        define(ElementType.FLOAT, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.floats(in, a, io, b, n, FloatLoops::sum));
        define(ElementType.FLOAT, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.floats(in, a, io, b, n, FloatLoops::prod));
        define(ElementType.FLOAT, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.floats(in, a, io, b, n, FloatLoops::min));
        define(ElementType.FLOAT, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.floats(in, a, io, b, n, FloatLoops::max));

        define(ElementType.DOUBLE, PredefinedOperator.SUM,
                (in, a, io, b, n) -> StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::sum));
        define(ElementType.DOUBLE, PredefinedOperator.PROD,
                (in, a, io, b, n) -> StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::prod));
        define(ElementType.DOUBLE, PredefinedOperator.MIN,
                (in, a, io, b, n) -> StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::min));
        define(ElementType.DOUBLE, PredefinedOperator.MAX,
                (in, a, io, b, n) -> StagedCombiners.doubles(in, a, io, b, n, DoubleLoops::max));

        // BOOLEAN is a byte holding 0 or non-zero: the byte loops' logical operators are exactly its operators.
        define(ElementType.BOOLEAN, PredefinedOperator.LAND,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::land));
        define(ElementType.BOOLEAN, PredefinedOperator.LOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lor));
        define(ElementType.BOOLEAN, PredefinedOperator.LXOR,
                (in, a, io, b, n) -> StagedCombiners.bytes(in, a, io, b, n, ByteLoops::lxor));

        for (ElementType pair : new ElementType[] {ElementType.INT_INT, ElementType.FLOAT_INT, ElementType.LONG_INT,
                ElementType.DOUBLE_INT}) {
            define(pair, PredefinedOperator.MINLOC, PairLoops.of(pair, false));
            define(pair, PredefinedOperator.MAXLOC, PairLoops.of(pair, true));
        }
    }

    private Combiners() {
    }

    private static void define(ElementType type, PredefinedOperator op, Combiner staged) {
        Combiner vector = VECTOR_API ? VectorCombiners.of(type, op) : null;
        TABLE.computeIfAbsent(type, t -> new EnumMap<>(PredefinedOperator.class)).put(op, vector != null ? vector : staged);
        STAGED.computeIfAbsent(type, t -> new EnumMap<>(PredefinedOperator.class)).put(op, staged);
    }

    /** Whether this JVM combines with the Vector API where it can (it runs with {@code jdk.incubator.vector}). */
    public static boolean vectorApi() {
        return VECTOR_API;
    }

    /**
     * The staged loop of predefined {@code op} on {@code type} ({@link StagedCombiners}), even where {@link #of} gives
     * the Vector API's: what the tests and the local-reduction benchmark compare it with.
     *
     * @throws IllegalArgumentException if the pair is not defined
     */
    public static Combiner staged(ElementType type, PredefinedOperator op) {
        of(type, op); // the same refusal as of()
        return STAGED.get(type).get(op);
    }

    /** True when {@code op} is defined on {@code type}; a user operator is defined on every type. */
    public static boolean defined(ElementType type, Operator op) {
        return op instanceof UserOperator || TABLE.getOrDefault(type, Map.of()).containsKey((PredefinedOperator) op);
    }

    /**
     * The combiner for {@code op} on {@code type}.
     *
     * @throws IllegalArgumentException naming the pair and the types the operator accepts, if it is not defined
     */
    public static Combiner of(ElementType type, Operator op) {
        java.util.Objects.requireNonNull(type, "element type");
        java.util.Objects.requireNonNull(op, "operator");
        if (op instanceof UserOperator user) {
            UserFunction function = user.function();
            int size = type.sizeBytes();
            return (in, inOffset, inout, inoutOffset, count) -> {
                Bounds.check(in, inOffset, inout, inoutOffset, count, size);
                function.apply(in, inOffset, inout, inoutOffset, count);
            };
        }
        Combiner combiner = TABLE.getOrDefault(type, Map.of()).get((PredefinedOperator) op);
        if (combiner == null) {
            throw new IllegalArgumentException("operator " + op.id() + " is not defined on " + type + ": "
                    + op.id() + " takes " + accepted((PredefinedOperator) op));
        }
        return combiner;
    }

    private static String accepted(PredefinedOperator op) {
        StringBuilder sb = new StringBuilder();
        for (ElementType type : ElementType.values()) {
            if (TABLE.getOrDefault(type, Map.of()).containsKey(op)) {
                sb.append(sb.isEmpty() ? "" : ", ").append(type);
            }
        }
        return sb.toString();
    }
}
