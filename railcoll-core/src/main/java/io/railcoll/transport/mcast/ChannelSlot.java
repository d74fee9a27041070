package io.railcoll.transport.mcast;

import java.lang.foreign.MemorySegment;

/**
 * One broadcast channel (paper 003, sec. 4.1): the state of the broadcast bound to it, {@code seq}, until the
 * synchronization that covers it releases the channel. On a receiver it is the reassembly target: fragments land
 * in the caller's buffer once the broadcast is posted (in place), before that in the channel's own staging
 * buffer. On the root it holds what may have to be sent again: a copy (small messages, so the caller's
 * broadcast can return at once) or the caller's buffer itself (large messages, whose broadcast waits for the
 * synchronization). Owned by the protocol's thread.
 */
final class ChannelSlot {
    long seq = -1;
    int rootIndex;
    int totalLength;
    int fragCount;
    final FragmentSet fragments = new FragmentSet();
    /** Bytes that arrived in order through the fail-over tree. */
    long treeBytes;
    boolean complete;
    /** Highest fragment index that arrived (a hole below it is evidence of loss). */
    int highestFragment;
    /** When this member last (re)sent a datagram of it (root side). */
    long lastSentNs;
    /** Where arriving bytes go: {@link #staging} or the caller's buffer. Null once delivered. */
    MemorySegment dest;
    /** Receive staging; kept across uses when at most the buffered limit, so small broadcasts allocate nothing. */
    MemorySegment staging;

    // Root side.
    /** What to (re)send; null when this member is not the root or after the release. */
    MemorySegment source;
    /** Fragments [0, sendCursor) went out at least once. */
    int sendCursor;
    /** Fragments queued for retransmission. */
    final FragmentSet resend = new FragmentSet();
    boolean resendPending;
    /** Per fragment: how often a NACK asked for it again (the fail-over cap). */
    short[] resendCounts = new short[0];
    /** When a NACK first asked for a re-send of it (the fail-over cap's time floor); MIN_VALUE until then. */
    long firstRequestNs;

    boolean bound() {
        return seq >= 0;
    }

    void bind(long s, int root, int total, int frags) {
        seq = s;
        rootIndex = root;
        totalLength = total;
        fragCount = frags;
        fragments.reset(frags);
        resend.reset(frags);
        if (resendCounts.length < frags) {
            resendCounts = new short[frags];
        } else {
            java.util.Arrays.fill(resendCounts, 0, frags, (short) 0);
        }
        resendPending = false;
        firstRequestNs = Long.MIN_VALUE;
        treeBytes = 0;
        highestFragment = -1;
        lastSentNs = Long.MIN_VALUE / 2;
        complete = false;
        dest = null;
        source = null;
        sendCursor = 0;
    }

    /** A staging buffer of at least {@code bytes}, reused when big enough. */
    MemorySegment staging(int bytes) {
        if (staging == null || staging.byteSize() < bytes) {
            staging = MemorySegment.ofArray(new byte[Math.max(bytes, 64)]);
        }
        return staging.asSlice(0, bytes);
    }

    /** Frees the channel for the next broadcast; drops an oversized staging buffer so memory stays bounded. */
    void release(int keepStagingBytes) {
        seq = -1;
        dest = null;
        source = null;
        resendPending = false;
        if (staging != null && staging.byteSize() > keepStagingBytes) {
            staging = null;
        }
    }
}
