package io.railcoll.transport.tcp;

import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** One frame waiting to be written: its encoded header and its payload view. Pooled per connection. */
final class OutFrame {
    final ByteBuffer header = ByteBuffer.allocateDirect(FrameHeader.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    final ByteBuffer[] pair = new ByteBuffer[2];
    ByteBuffer payload;
    SendCompletion completion;
    long payloadBytes;

    void set(ByteBuffer payload, SendCompletion completion) {
        this.payload = payload;
        this.completion = completion;
        this.payloadBytes = payload == null ? 0 : payload.remaining();
        pair[0] = header;
        pair[1] = payload == null ? EMPTY : payload;
    }

    boolean written() {
        return !header.hasRemaining() && (payload == null || !payload.hasRemaining());
    }

    void clear() {
        payload = null;
        completion = null;
        pair[1] = null;
        header.clear();
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
}
