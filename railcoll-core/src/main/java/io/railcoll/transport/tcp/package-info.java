/**
 * The rails: one TCP connection per (peer, rail), each bound to that rail's local address, carrying frames
 * (see {@link io.railcoll.transport.FrameHeader}). Large puts are striped evenly over all rails, small ones
 * take a rail each, round-robin. Knows nothing of collectives beyond the header fields it copies.
 */
package io.railcoll.transport.tcp;
