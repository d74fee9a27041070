package io.railcoll.transport.tcp;

import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import java.lang.foreign.MemorySegment;

/**
 * One fragment handed from the owner to a rail thread through a {@link SpscRing}: the DATA header to send (encoded
 * by the rail thread, so the checksum is computed off the owner's path), where its payload is ({@code fragLength}
 * bytes of {@code source} at {@code sourceOffset}; the rail thread views it) and the completion to
 * count it against. Reused: the owner fills it, the rail thread copies it into a frame and clears it.
 */
final class PutSlot {
    final FrameHeader header = new FrameHeader();
    MemorySegment source;
    long sourceOffset;
    SendCompletion completion;
    int peer;
    int lane;

    void clear() {
        source = null;
        completion = null;
    }
}
