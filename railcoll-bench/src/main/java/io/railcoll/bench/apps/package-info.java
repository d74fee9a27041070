/**
 * Application benchmarks after paper 000's Table 1: {@link io.railcoll.bench.apps.NbodyApp} (a time-stepped gravity
 * simulation that all-gathers positions every step) and {@link io.railcoll.bench.apps.RadixApp} (a parallel radix
 * sort that all-gathers digit histograms every pass). Each runs its timed section once with a baseline all-gather
 * algorithm and once with a compared one (or automatic selection), reports total and communication time and the
 * speedup, and verifies its output so that a fast wrong answer fails the job.
 *
 * <p>The numerical and sorting pieces ({@link io.railcoll.bench.apps.GravityKernel},
 * {@link io.railcoll.bench.apps.DigitSort}, {@link io.railcoll.bench.apps.RadixPlan}, ...) are pure and tested
 * without processes; only the {@code *App} classes, {@link io.railcoll.bench.apps.TimedCollectives} and
 * {@link io.railcoll.bench.apps.RankVerdicts} touch a {@link io.railcoll.Communicator}. Nothing here imports the
 * engine, transports or launcher internals: apps use the public API only, as a user's application would.
 */
package io.railcoll.bench.apps;
