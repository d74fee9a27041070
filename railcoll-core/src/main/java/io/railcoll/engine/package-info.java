/**
 * The one place where schedules meet transports: compiles a rank's program into flat arrays once per shape,
 * binds its symbolic buffers to memory per call, issues its puts over the transports, waits for its receives with
 * deadlines, and checks every incoming frame against the collective this rank is running.
 */
package io.railcoll.engine;
