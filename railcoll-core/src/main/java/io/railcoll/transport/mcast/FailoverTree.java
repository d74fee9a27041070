package io.railcoll.transport.mcast;

import io.railcoll.transport.mcast.MulticastCounters.Counter;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The point-to-point data path after a fail-over (paper 003, sec. 4.4): a broadcast travels down the k-nomial tree
 * rooted at its root, over the control links, in TREE_DATA messages of at most {@code chunkBytes}; every inner
 * member forwards each chunk to its children as soon as it arrives (pipelining), whether or not it already had
 * the broadcast. Reliable and ordered because the links are. Trees are built once per root and cached.
 * Owned by the protocol's thread.
 */
final class FailoverTree {
    private final int[] members;
    private final int me;
    private final int radix;
    private final int chunkBytes;
    private final ControlLink link;
    private final MulticastCounters counters;
    private final KnomialTree[] trees;
    private ByteBuffer out = ByteBuffer.allocate(ControlMessages.TREE_HEADER + 4096);

    FailoverTree(int[] members, int me, int radix, int chunkBytes, ControlLink link, MulticastCounters counters) {
        this.members = members;
        this.me = me;
        this.radix = radix;
        this.chunkBytes = chunkBytes;
        this.link = link;
        this.counters = counters;
        this.trees = new KnomialTree[members.length];
    }

    /** Sends broadcast {@code seq}, rooted at this member, to its children: every chunk, at once. */
    void send(long seq, MemorySegment source) {
        int[] children = tree(me).children(me);
        int total = (int) source.byteSize();
        int off = 0;
        do {
            int len = Math.min(chunkBytes, total - off);
            ByteBuffer m = message(seq, members[me], total, off, len);
            MemorySegment.copy(source, off, MemorySegment.ofBuffer(m), ControlMessages.TREE_HEADER, len);
            for (int c : children) {
                link.send(members[c], m.duplicate());
                counters.increment(Counter.TREE_MESSAGES_SENT);
            }
            off += len;
        } while (off < total);
    }

    /** Passes a TREE_DATA message on to this member's children in the tree rooted at {@code rootIndex}. */
    void forward(ByteBuffer m, int rootIndex) {
        for (int c : tree(rootIndex).children(me)) {
            link.send(members[c], m.duplicate());
            counters.increment(Counter.TREE_MESSAGES_SENT);
        }
    }

    static int rootRank(ByteBuffer m) {
        return m.getInt(4);
    }

    static long seq(ByteBuffer m) {
        return m.getLong(8);
    }

    static int totalLength(ByteBuffer m) {
        return m.getInt(16);
    }

    static int offset(ByteBuffer m) {
        return m.getInt(20);
    }

    static int length(ByteBuffer m) {
        return m.getInt(24);
    }

    private ByteBuffer message(long seq, int rootRank, int total, int off, int len) {
        int need = ControlMessages.TREE_HEADER + len;
        if (out.capacity() < need) {
            out = ByteBuffer.allocate(need);
        }
        ControlMessages.le(out).clear();
        out.put(ControlMessages.TREE_DATA).put((byte) 0).putShort((short) 0).putInt(rootRank).putLong(seq)
                .putInt(total).putInt(off).putInt(len);
        out.limit(need).position(0);
        return out;
    }

    private KnomialTree tree(int rootIndex) {
        KnomialTree t = trees[rootIndex];
        if (t == null) {
            t = new KnomialTree(members.length, radix, rootIndex);
            trees[rootIndex] = t;
        }
        return t;
    }
}
