/**
 * Application benchmarks after paper 000's Table 1: {@link io.railcoll.bench.apps.NbodyApp} (a time-stepped gravity
 * simulation that all-gathers positions every step), {@link io.railcoll.bench.apps.RadixApp} (a parallel radix
 * sort that all-gathers digit histograms every pass), {@link io.railcoll.bench.apps.KmeansApp} (all-reduce of
 * per-cluster sums) and {@link io.railcoll.bench.apps.CgApp} (conjugate gradient: all-reduced dot products and a
 * point-to-point halo exchange). Each runs its timed section once with a baseline algorithm
 * of its main collective and once with a compared one (or automatic selection), reports total and communication time and the
 * speedup, and verifies its output so that a fast wrong answer fails the job.
 *
 * <p>The numerical and sorting pieces ({@link io.railcoll.bench.apps.GravityKernel},
 * {@link io.railcoll.bench.apps.NbodySimulation}, {@link io.railcoll.bench.apps.DigitSort},
 * {@link io.railcoll.bench.apps.RadixPlan}, ...) are pure and tested without processes; the classes that call
 * collectives take a {@link io.railcoll.Communicator}, so tests also run whole apps on in-process ranks. Nothing
 * here imports the engine, transports or launcher internals (only {@code RankApp}): apps use the public API, as a
 * user's application would. See {@code docs/applications.md}.
 */
package io.railcoll.bench.apps;
