package io.railcoll.reduce;

/**
 * A reduction operator: one of the {@link PredefinedOperator}s or a {@link UserOperator}. Combining {@code in} into
 * {@code inout} computes {@code inout[i] = in[i] op inout[i]}: {@code in} is the <em>left</em> operand, as in MPI's
 * user functions, so a collective that combines in rank order passes the lower ranks' contribution as {@code in}.
 * {@link Combiners#of} turns an operator and an {@link ElementType} into the loop that does it.
 */
public sealed interface Operator permits PredefinedOperator, UserOperator {

    /** A short name for messages and frame headers, e.g. {@code sum} or the user's name. */
    String id();

    /** True when {@code a op b == b op a}; a collective may then combine contributions in any order. */
    boolean commutative();
}
