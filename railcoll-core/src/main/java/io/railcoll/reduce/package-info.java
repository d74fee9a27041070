/**
 * Typed data and reduction operators: {@link io.railcoll.reduce.ElementType} (byte to double, boolean, and the
 * (value, index) pairs of MINLOC/MAXLOC), {@link io.railcoll.reduce.Operator} (predefined or user-written), and
 * {@link io.railcoll.reduce.Combiners}, which checks that an operator is defined on a type and returns the loop
 * that combines one buffer into another at memory speed. Part of the public API (reduction collectives take these
 * types). Imports only {@code java.lang.foreign} and {@code java.util}: no schedule, engine or transport.
 */
package io.railcoll.reduce;
