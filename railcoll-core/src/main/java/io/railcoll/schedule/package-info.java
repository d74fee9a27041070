/**
 * Schedules: what moves where, symbolically. An algorithm turns a {@link io.railcoll.schedule.Shape} into one
 * {@link io.railcoll.schedule.RankProgram} per rank of puts, receives and copies over symbolic buffers, and states
 * its {@link io.railcoll.schedule.CostTerms}; the {@link io.railcoll.schedule.ScheduleChecker} proves programs right
 * for a shape and measures their cost on their {@link io.railcoll.schedule.Traffic}.
 * Imports only {@code topology} and {@code java.util}: no sockets, threads, clocks or memory.
 */
package io.railcoll.schedule;
