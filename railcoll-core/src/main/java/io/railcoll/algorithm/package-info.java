/**
 * The collective algorithms, one class per algorithm in a sub-package per collective, each a pure function from a
 * {@link io.railcoll.schedule.Shape} to programs and a closed-form cost; {@link io.railcoll.algorithm.AlgorithmCatalog}
 * lists them all. This package also holds the building blocks they share (k-nomial trees, radix arithmetic, the
 * program builder, the Direct algorithms' pattern, the Standard Exchange's layout and fold). Imports only
 * {@code schedule}, {@code topology} and {@code java.util}.
 */
package io.railcoll.algorithm;
