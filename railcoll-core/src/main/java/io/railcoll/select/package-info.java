/**
 * Which algorithm runs: a forced choice from configuration, else the first rule whose range covers the shape and
 * whose algorithm supports it. Knows algorithms and their costs, never wires.
 */
package io.railcoll.select;
