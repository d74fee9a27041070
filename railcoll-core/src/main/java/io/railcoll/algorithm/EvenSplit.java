package io.railcoll.algorithm;

/**
 * A vector of {@code elements} cut into {@code parts} between elements, as every slicing reduction cuts it: each part
 * {@code elements / parts} elements, the first {@code elements % parts} one more. Ranks that compute their parts apart
 * must agree to the element, so the rule lives here once.
 */
public final class EvenSplit {
    private EvenSplit() {
    }

    /** The first element of part {@code i}; {@code first(elements, parts, parts)} is {@code elements}. */
    public static long first(long elements, int parts, int i) {
        long q = elements / parts;
        long r = elements % parts;
        return i * q + Math.min(i, r);
    }

    /** The elements of part {@code i}. */
    public static long count(long elements, int parts, int i) {
        return elements / parts + (i < elements % parts ? 1 : 0);
    }
}
