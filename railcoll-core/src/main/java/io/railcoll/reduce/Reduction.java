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

    private Reduction(ElementType type, Operator operator) {
        this.type = type;
        this.operator = operator;
        this.combiner = Combiners.of(type, operator);
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
        int size = type.sizeBytes();
        if (lengthBytes % size != 0) {
            throw new IllegalArgumentException("a reduction step of " + lengthBytes + " bytes is not a whole number of "
                    + type + " elements (" + size + " bytes each)");
        }
        combiner.combine(in, inOffset, inout, inoutOffset, lengthBytes / size);
    }

    @Override
    public String toString() {
        return operator.id() + " on " + type;
    }
}
