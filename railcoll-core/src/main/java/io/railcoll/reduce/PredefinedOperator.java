package io.railcoll.reduce;

/**
 * The operators railcoll provides, with the element types each is defined for (checked by {@link Combiners#of}):
 * <table>
 *   <caption>operators and types</caption>
 *   <tr><th>operator</th><th>types</th><th>meaning</th></tr>
 *   <tr><td>SUM, PROD</td><td>integer types, FLOAT, DOUBLE</td><td>integers wrap; floating point is IEEE 754</td></tr>
 *   <tr><td>MIN, MAX</td><td>integer types, FLOAT, DOUBLE</td><td>CHAR unsigned; floating point as
 *       {@link Math#min(double, double)}: NaN wins, -0.0 &lt; +0.0</td></tr>
 *   <tr><td>LAND, LOR, LXOR</td><td>integer types, BOOLEAN</td><td>non-zero is true; the result is 1 or 0</td></tr>
 *   <tr><td>BAND, BOR, BXOR</td><td>integer types</td><td>bit by bit</td></tr>
 *   <tr><td>MINLOC, MAXLOC</td><td>INT_INT, FLOAT_INT, LONG_INT, DOUBLE_INT</td><td>the least (greatest) value and
 *       its index; on equal values the lower index, as MPI; for floating point NaN wins as in MIN and MAX, and
 *       -0.0 &lt; +0.0</td></tr>
 * </table>
 * Every predefined operator is commutative; integer ones are associative too, floating-point SUM and PROD are not,
 * so their result depends on the order a collective combines in.
 */
public enum PredefinedOperator implements Operator {
    SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC, MAXLOC;

    @Override
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public boolean commutative() {
        return true;
    }
}
