/**
 * Rail accounting: proof that a benchmark's bytes crossed the rails. The kernel's byte counters of every rail
 * interface of every node are read around each point ({@link io.railcoll.bench.rails.InterfaceCounters}, in the
 * node's own network namespace), summed into {@link io.railcoll.bench.rails.RailTraffic}, and set against what
 * the collective must bring into its busiest node at the rails' rate ({@link io.railcoll.bench.rails.PhysicalLimit}).
 * A figure faster than that limit, or one whose rails carried less than the collective must move, is impossible
 * ({@link io.railcoll.bench.rails.RailVerdict}).
 *
 * <p>Pure data and one file reader; it must not import the engine, transports or launcher.
 */
package io.railcoll.bench.rails;
