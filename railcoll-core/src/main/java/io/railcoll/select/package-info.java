/**
 * Which algorithm runs: a forced choice from configuration, else the first rule of the tuning file whose ranges
 * cover the shape and whose algorithm can run it, else the algorithm the cost model predicts fastest (by
 * {@link io.railcoll.sim.Simulator}); and why ({@link io.railcoll.select.Explanation}). Tuning files are
 * {@code java.util.Properties} text read and checked by {@link io.railcoll.select.TuningFile}. Knows algorithms,
 * schedules and costs; imports {@code algorithm}, {@code schedule}, {@code sim}, {@code topology} and the JDK, never
 * wires, threads or clocks.
 */
package io.railcoll.select;
