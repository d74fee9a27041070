package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * The multicast capability of a transport (decision 0146): reliable delivery of one stream of bytes from a root to
 * every member of a group, progressed without blocking by whoever drives the engine (the
 * transport's component is also the engine's progress hook, which keeps serving its peers between deliveries). What "reliable" takes (NACKs,
 * re-sends, the delayed synchronization that frees the channels, fail-over to point-to-point links) is the
 * transport's business; which bytes go from which root, in what order with what else, is the schedule's. Deliveries
 * run one at a time, in the order they are posted, and every member posts the same sequence. Owner thread only.
 */
public interface MulticastStream {

    /**
     * Starts delivering {@code length} bytes of {@code buffer} at {@code offset} from {@code root}: this member sends
     * them when it is the root, else receives them there. Only when the last delivery is {@link #delivered}.
     */
    void post(MemorySegment buffer, long offset, long length, int root);

    /** Whether this member's part of the delivery posted last is done: its buffer is the caller's again. */
    boolean delivered();
}
