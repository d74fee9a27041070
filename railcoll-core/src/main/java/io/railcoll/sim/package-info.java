/**
 * The cost model and the simulator: per link class Hockney parameters (startup time, time per byte, the share of
 * both that is processor time) plus the shared resources of a node, and a discrete-event run of any schedule
 * against them to predict a collective's time, for the placements this machine runs and for ones far beyond it.
 * Imports {@code schedule}, {@code topology} and {@code java.util} only: no sockets, threads, clocks or memory, so a
 * prediction is a pure, deterministic function of (algorithm, shape, model), the same on every rank.
 */
package io.railcoll.sim;
