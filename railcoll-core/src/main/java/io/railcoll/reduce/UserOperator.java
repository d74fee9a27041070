package io.railcoll.reduce;

import java.util.Objects;

/**
 * An operator written by the program: a {@link UserFunction} over two segments, defined for every element type
 * (the function interprets the bytes). A non-commutative one ({@code commutative == false}) is combined in rank
 * order: the result is {@code x0 op x1 op ... op x(n-1)}, bracketed as the algorithm chooses, so it must be
 * associative. Every rank of a collective must pass an operator with the same {@code id}.
 */
public record UserOperator(String id, boolean commutative, UserFunction function) implements Operator {
    public UserOperator {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(function, "function");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a user operator needs a non-blank id");
        }
    }
}
