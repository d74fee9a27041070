/**
 * Opt-in counts of what a collective call costs the machine, event by event (frames and bytes per rail, ACKs,
 * selector and futex wake-ups, doorbell rings, node steps, hand-offs to rail threads), and the times of one call's
 * ops: the breakdown of {@code docs/latency-breakdown.md}. Off unless the JVM runs with {@code -Drailcoll.counters=true};
 * every hook is behind a {@code static final} flag, so when off the JIT removes it.
 *
 * <p>Imports only {@code java.*}: every layer (memory, transports, engine) may report here, and nothing here knows
 * them.
 */
package io.railcoll.trace;
