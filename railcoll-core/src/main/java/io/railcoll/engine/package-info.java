/**
 * The one place where schedules meet transports: compiles a rank's program into flat arrays once per shape,
 * binds its symbolic buffers to memory per call, issues its puts over the transports, waits for its receives with
 * deadlines, and checks every incoming frame against the collective this rank is running. One engine per
 * communicator; the rank's {@link io.railcoll.engine.ContextRouter} hands each incoming frame to the engine of the
 * communicator its context names.
 */
package io.railcoll.engine;
