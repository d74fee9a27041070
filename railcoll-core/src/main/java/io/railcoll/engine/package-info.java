/**
 * The one place where schedules meet transports: compiles a rank's program into flat arrays once per shape,
 * holds up to {@link io.railcoll.engine.CollectiveEngine#WINDOW} calls in flight, each a resumable state machine
 * over its program ({@code Posting}) whose buffers are bound when it is posted, issues their puts over the
 * transports, advances them whenever a call waits or tests, enforces one deadline per call, and checks every
 * incoming frame against the call it belongs to. One engine per communicator; the rank's
 * {@link io.railcoll.engine.ContextRouter} hands each incoming frame to the engine of the communicator its context
 * names. Imports transports and schedules; knows no algorithm by name.
 */
package io.railcoll.engine;
