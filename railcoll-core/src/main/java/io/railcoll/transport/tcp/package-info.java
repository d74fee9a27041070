/**
 * The rails: TCP connections (lanes) to every peer on every rail, each bound to that rail's local address,
 * carrying frames (see {@link io.railcoll.transport.FrameHeader}). Two engines over one protocol: the owner drives
 * every lane ({@link io.railcoll.transport.tcp.TcpRailTransport}) or a thread per rail does
 * ({@link io.railcoll.transport.tcp.ThreadedRailTransport}). Large puts are striped evenly over the live lanes,
 * small ones take a lane each, round-robin; every DATA frame is kept until the receiver acknowledges it, so a rail
 * that fails (silent past its time-out, or reset) is given up and its frames re-sent on the others, duplicates
 * dropped by the receiver; the higher rank of the pair dials a given-up lane again until the rail is back
 * ({@link io.railcoll.transport.tcp.RailReconnector}, decision 0055), and it is used again (docs/rails.md). Knows nothing of collectives beyond the header fields it copies; imports
 * no schedule, algorithm or selection.
 */
package io.railcoll.transport.tcp;
