package io.railcoll.reduce;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An element type and an operator checked to go together, with their {@link Combiner}: what a reduction
 * collective hands the engine for its {@code Reduce} steps, which count bytes. Immutable; thread-safe.
 */
public final class Reduction {
    private final ElementType type;
    private final Operator operator;
    private final Combiner combiner;
    /**
     * log2 of the element size (every size is a power of two): {@link #combineBytes} turns bytes into elements by a
     * shift and checks whole elements by a mask. The size is a field here, not a constant, and a division by it is a
     * 64-bit divide (tens of cycles) on every reduction step; decision 0241.
     */
    private final int sizeShift;
    /** The element size less one: the low bits a whole number of elements has clear. */
    private final long elementMask;
    private final int wireCode;

    private Reduction(ElementType type, Operator operator) {
        this.type = type;
        this.operator = operator;
        this.combiner = Combiners.of(type, operator);
        int size = type.sizeBytes();
        if (Integer.bitCount(size) != 1) {
            throw new IllegalStateException(type + " is " + size + " bytes, not a power of two");
        }
        this.sizeShift = Integer.numberOfTrailingZeros(size);
        this.elementMask = size - 1;
        this.wireCode = (type.ordinal() + 1) | operatorCode(operator) << 8;
    }

    /**
     * 24 bits that frame headers carry so that ranks combining with different types or operators fail with a
     * mismatch: the type in bits 0-7, the operator in bits 8-23 (a predefined one by number, a user operator by a
     * 15-bit hash of its id, so two user operators whose ids collide there are not told apart).
     */
    public int wireCode() {
        return wireCode;
    }

    private static int operatorCode(Operator op) {
        return switch (op) {
            case PredefinedOperator p -> p.ordinal() + 1;
            case UserOperator u -> 0x8000 | (u.id().hashCode() & 0x7fff);
        };
    }

    /** What {@code wireCode} (from {@link #wireCode()}) stands for, for mismatch messages. */
    public static String describeWireCode(int wireCode) {
        int t = (wireCode & 0xff) - 1;
        int o = wireCode >>> 8 & 0xffff;
        String type = t >= 0 && t < ElementType.values().length ? ElementType.values()[t].toString() : "no type";
        String op;
        if (o == 0) {
            op = "no operator";
        } else if ((o & 0x8000) != 0) {
            op = "a user operator (id hash " + (o & 0x7fff) + ")";
        } else if (o <= PredefinedOperator.values().length) {
            op = PredefinedOperator.values()[o - 1].id();
        } else {
            op = "operator code " + o;
        }
        return op + " on " + type;
    }

    /** @throws IllegalArgumentException when {@code operator} is not defined on {@code type} */
    public static Reduction of(ElementType type, Operator operator) {
        return new Reduction(Objects.requireNonNull(type, "element type"), Objects.requireNonNull(operator, "operator"));
    }

    public ElementType type() {
        return type;
    }

    public Operator operator() {
        return operator;
    }

    /**
     * {@code inout = in op inout} over {@code lengthBytes} bytes, a whole number of elements.
     *
     * @throws IllegalArgumentException when the length is not a multiple of the element size
     */
    public void combineBytes(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, long lengthBytes) {
        combiner.combine(in, inOffset, inout, inoutOffset, elements(lengthBytes));
    }

    /**
     * {@code lengthBytes} in elements. The check and the message are out of {@link #combineBytes}, which was 68 bytes
     * of bytecode, over C2's limit for inlining at a call site it does not count as hot (35): the bench's compiled
     * loop called it out of line (decision 0241). Both are under it now.
     */
    private long elements(long lengthBytes) {
        if ((lengthBytes & elementMask) != 0) {
            throw notWhole(lengthBytes);
        }
        return lengthBytes >> sizeShift;
    }

    private IllegalArgumentException notWhole(long lengthBytes) {
        return new IllegalArgumentException("a reduction step of " + lengthBytes + " bytes is not a whole number of "
                + type + " elements (" + type.sizeBytes() + " bytes each)");
    }

    @Override
    public String toString() {
        return operator.id() + " on " + type;
    }
}
