/**
 * Benchmark results and the ways a person reads them: the result model ({@link io.railcoll.bench.report.BenchResult},
 * {@link io.railcoll.bench.report.Samples}), the comparison table, and the CSV, console, Markdown and PNG writers.
 *
 * <p>Pure data in, files and text out: nothing here runs a collective, starts a process or reads a clock
 * except {@link io.railcoll.bench.report.MachineFacts}, so every writer is tested on hand-made results.
 * It must not import the engine, transports or launcher; it may use the JDK, HdrHistogram, Commons CSV
 * and XChart, and {@code io.railcoll.schedule.Collective} / {@code io.railcoll.topology.Placement} for names.
 */
package io.railcoll.bench.report;
