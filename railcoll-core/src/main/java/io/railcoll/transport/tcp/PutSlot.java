package io.railcoll.transport.tcp;

import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import java.nio.ByteBuffer;

/**
 * One fragment handed from the owner to a rail thread through a {@link SpscRing}: the DATA header to send (encoded
 * by the rail thread, so the checksum is computed off the owner's path), the payload view and the completion to
 * count it against. Reused: the owner fills it, the rail thread copies it into a frame and clears it.
 */
final class PutSlot {
    final FrameHeader header = new FrameHeader();
    ByteBuffer payload;
    SendCompletion completion;
    int peer;
    int lane;

    void clear() {
        payload = null;
        completion = null;
    }
}
