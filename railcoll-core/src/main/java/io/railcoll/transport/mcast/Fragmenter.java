package io.railcoll.transport.mcast;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Cuts a message into datagrams of at most {@code payloadBytes} payload each: fragment {@code i} holds bytes
 * {@code [i*payloadBytes, min((i+1)*payloadBytes, total))}. An empty message is one fragment with no payload, so
 * receivers still learn that broadcast number {@code seq} happened. Pure arithmetic plus one copy into the
 * datagram buffer; immutable, any thread.
 */
public final class Fragmenter {
    private final int payloadBytes;

    public Fragmenter(int payloadBytes) {
        if (payloadBytes < 1 || payloadBytes > MulticastSettings.MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload per datagram must be 1.." + MulticastSettings.MAX_PAYLOAD_BYTES
                    + " bytes, got " + payloadBytes);
        }
        this.payloadBytes = payloadBytes;
    }

    public int payloadBytes() {
        return payloadBytes;
    }

    public int fragmentCount(long totalBytes) {
        return totalBytes == 0 ? 1 : (int) ((totalBytes + payloadBytes - 1) / payloadBytes);
    }

    public int offset(int fragment) {
        return fragment * payloadBytes;
    }

    public int length(int fragment, long totalBytes) {
        return (int) Math.min(payloadBytes, totalBytes - (long) fragment * payloadBytes);
    }

    /**
     * Fills {@code datagram} with fragment {@code fragment} of {@code source} (header fields taken from {@code h},
     * whose fragment fields this sets) and leaves it ready to send (position 0, limit = datagram length).
     */
    public void write(DatagramHeader h, MemorySegment source, int fragment, ByteBuffer datagram,
                      ChecksumKind.Checksummer checksummer) {
        int total = (int) source.byteSize();
        h.totalLength = total;
        h.fragCount = fragmentCount(total);
        h.fragIndex = fragment;
        h.fragOffset = offset(fragment);
        h.fragLength = length(fragment, total);
        datagram.clear();
        MemorySegment.copy(source, h.fragOffset, MemorySegment.ofBuffer(datagram), DatagramHeader.BYTES, h.fragLength);
        h.writeTo(datagram, checksummer);
    }
}
