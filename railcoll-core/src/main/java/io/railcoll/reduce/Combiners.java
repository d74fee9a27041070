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
        define(ElementType.BYTE, PredefinedOperator.SUM, StagedCombiners.ofBytes(ByteLoops::sum));
        define(ElementType.BYTE, PredefinedOperator.PROD, StagedCombiners.ofBytes(ByteLoops::prod));
        define(ElementType.BYTE, PredefinedOperator.MIN, StagedCombiners.ofBytes(ByteLoops::min));
        define(ElementType.BYTE, PredefinedOperator.MAX, StagedCombiners.ofBytes(ByteLoops::max));
        define(ElementType.BYTE, PredefinedOperator.BAND, StagedCombiners.ofBytes(ByteLoops::band));
        define(ElementType.BYTE, PredefinedOperator.BOR, StagedCombiners.ofBytes(ByteLoops::bor));
        define(ElementType.BYTE, PredefinedOperator.BXOR, StagedCombiners.ofBytes(ByteLoops::bxor));
        define(ElementType.BYTE, PredefinedOperator.LAND, StagedCombiners.ofBytes(ByteLoops::land));
        define(ElementType.BYTE, PredefinedOperator.LOR, StagedCombiners.ofBytes(ByteLoops::lor));
        define(ElementType.BYTE, PredefinedOperator.LXOR, StagedCombiners.ofBytes(ByteLoops::lxor));

        define(ElementType.SHORT, PredefinedOperator.SUM, StagedCombiners.ofShorts(ShortLoops::sum));
        define(ElementType.SHORT, PredefinedOperator.PROD, StagedCombiners.ofShorts(ShortLoops::prod));
        define(ElementType.SHORT, PredefinedOperator.MIN, StagedCombiners.ofShorts(ShortLoops::min));
        define(ElementType.SHORT, PredefinedOperator.MAX, StagedCombiners.ofShorts(ShortLoops::max));
        define(ElementType.SHORT, PredefinedOperator.BAND, StagedCombiners.ofShorts(ShortLoops::band));
        define(ElementType.SHORT, PredefinedOperator.BOR, StagedCombiners.ofShorts(ShortLoops::bor));
        define(ElementType.SHORT, PredefinedOperator.BXOR, StagedCombiners.ofShorts(ShortLoops::bxor));
        define(ElementType.SHORT, PredefinedOperator.LAND, StagedCombiners.ofShorts(ShortLoops::land));
        define(ElementType.SHORT, PredefinedOperator.LOR, StagedCombiners.ofShorts(ShortLoops::lor));
        define(ElementType.SHORT, PredefinedOperator.LXOR, StagedCombiners.ofShorts(ShortLoops::lxor));

        define(ElementType.CHAR, PredefinedOperator.SUM, StagedCombiners.ofChars(CharLoops::sum));
        define(ElementType.CHAR, PredefinedOperator.PROD, StagedCombiners.ofChars(CharLoops::prod));
        define(ElementType.CHAR, PredefinedOperator.MIN, StagedCombiners.ofChars(CharLoops::min));
        define(ElementType.CHAR, PredefinedOperator.MAX, StagedCombiners.ofChars(CharLoops::max));
        define(ElementType.CHAR, PredefinedOperator.BAND, StagedCombiners.ofChars(CharLoops::band));
        define(ElementType.CHAR, PredefinedOperator.BOR, StagedCombiners.ofChars(CharLoops::bor));
        define(ElementType.CHAR, PredefinedOperator.BXOR, StagedCombiners.ofChars(CharLoops::bxor));
        define(ElementType.CHAR, PredefinedOperator.LAND, StagedCombiners.ofChars(CharLoops::land));
        define(ElementType.CHAR, PredefinedOperator.LOR, StagedCombiners.ofChars(CharLoops::lor));
        define(ElementType.CHAR, PredefinedOperator.LXOR, StagedCombiners.ofChars(CharLoops::lxor));

        define(ElementType.INT, PredefinedOperator.SUM, StagedCombiners.ofInts(IntLoops::sum));
        define(ElementType.INT, PredefinedOperator.PROD, StagedCombiners.ofInts(IntLoops::prod));
        define(ElementType.INT, PredefinedOperator.MIN, StagedCombiners.ofInts(IntLoops::min));
        define(ElementType.INT, PredefinedOperator.MAX, StagedCombiners.ofInts(IntLoops::max));
        define(ElementType.INT, PredefinedOperator.BAND, StagedCombiners.ofInts(IntLoops::band));
        define(ElementType.INT, PredefinedOperator.BOR, StagedCombiners.ofInts(IntLoops::bor));
        define(ElementType.INT, PredefinedOperator.BXOR, StagedCombiners.ofInts(IntLoops::bxor));
        define(ElementType.INT, PredefinedOperator.LAND, StagedCombiners.ofInts(IntLoops::land));
        define(ElementType.INT, PredefinedOperator.LOR, StagedCombiners.ofInts(IntLoops::lor));
        define(ElementType.INT, PredefinedOperator.LXOR, StagedCombiners.ofInts(IntLoops::lxor));

        define(ElementType.LONG, PredefinedOperator.SUM, StagedCombiners.ofLongs(LongLoops::sum));
        define(ElementType.LONG, PredefinedOperator.PROD, StagedCombiners.ofLongs(LongLoops::prod));
        define(ElementType.LONG, PredefinedOperator.MIN, StagedCombiners.ofLongs(LongLoops::min));
        define(ElementType.LONG, PredefinedOperator.MAX, StagedCombiners.ofLongs(LongLoops::max));
        define(ElementType.LONG, PredefinedOperator.BAND, StagedCombiners.ofLongs(LongLoops::band));
        define(ElementType.LONG, PredefinedOperator.BOR, StagedCombiners.ofLongs(LongLoops::bor));
        define(ElementType.LONG, PredefinedOperator.BXOR, StagedCombiners.ofLongs(LongLoops::bxor));
        define(ElementType.LONG, PredefinedOperator.LAND, StagedCombiners.ofLongs(LongLoops::land));
        define(ElementType.LONG, PredefinedOperator.LOR, StagedCombiners.ofLongs(LongLoops::lor));
        define(ElementType.LONG, PredefinedOperator.LXOR, StagedCombiners.ofLongs(LongLoops::lxor));

        define(ElementType.FLOAT, PredefinedOperator.SUM, StagedCombiners.ofFloats(FloatLoops::sum));
        define(ElementType.FLOAT, PredefinedOperator.PROD, StagedCombiners.ofFloats(FloatLoops::prod));
        define(ElementType.FLOAT, PredefinedOperator.MIN, StagedCombiners.ofFloats(FloatLoops::min));
        define(ElementType.FLOAT, PredefinedOperator.MAX, StagedCombiners.ofFloats(FloatLoops::max));

        define(ElementType.DOUBLE, PredefinedOperator.SUM, StagedCombiners.ofDoubles(DoubleLoops::sum));
        define(ElementType.DOUBLE, PredefinedOperator.PROD, StagedCombiners.ofDoubles(DoubleLoops::prod));
        define(ElementType.DOUBLE, PredefinedOperator.MIN, StagedCombiners.ofDoubles(DoubleLoops::min));
        define(ElementType.DOUBLE, PredefinedOperator.MAX, StagedCombiners.ofDoubles(DoubleLoops::max));

        // BOOLEAN is a byte holding 0 or non-zero: the byte loops' logical operators are exactly its operators.
        define(ElementType.BOOLEAN, PredefinedOperator.LAND, StagedCombiners.ofBytes(ByteLoops::land));
        define(ElementType.BOOLEAN, PredefinedOperator.LOR, StagedCombiners.ofBytes(ByteLoops::lor));
        define(ElementType.BOOLEAN, PredefinedOperator.LXOR, StagedCombiners.ofBytes(ByteLoops::lxor));

        for (ElementType pair : new ElementType[] {ElementType.INT_INT, ElementType.FLOAT_INT, ElementType.LONG_INT,
                ElementType.DOUBLE_INT}) {
            define(pair, PredefinedOperator.MINLOC, PairLoops.of(pair, false));
            define(pair, PredefinedOperator.MAXLOC, PairLoops.of(pair, true));
        }
    }

    private Combiners() {
    }

    private static void define(ElementType type, PredefinedOperator op, Combiner staged) {
        Combiner vector = VECTOR_API ? VectorCombiners.of(type, op, staged) : null;
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
