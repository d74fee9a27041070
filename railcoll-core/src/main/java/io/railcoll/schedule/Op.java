package io.railcoll.schedule;

/**
 * One operation of a rank's program. The engine runs a program's ops in order:
 * <ul>
 *   <li>{@link Put}: starts writing {@code length} bytes of a local buffer into the peer's matching {@link Recv}.
 *       It does not block; up to k puts to different peers proceed at once, one per rail.</li>
 *   <li>{@link Recv}: blocks until the peer's put with the same tag has fully landed. Every Recv of a program is
 *       registered before the first op runs, so data may land at any time before the Recv is reached.</li>
 *   <li>{@link Copy}: a local copy, done when reached.</li>
 *   <li>{@link Reduce}: a local combine with the call's operator, {@code dst = src op dst}, done when reached.</li>
 * </ul>
 * Node steps work in the node buffer, memory every rank of a node maps ({@link NodeBuffer}; decision 0101):
 * <ul>
 *   <li>{@link NodeWrite}: copies a range of a local buffer into the node buffer, done when reached.</li>
 *   <li>{@link NodeRead}: copies a range of the node buffer into a local buffer, done when reached.</li>
 *   <li>{@link Publish}: raises one of this rank's node flags by one (release), waking node-mates that sleep.</li>
 *   <li>{@link AwaitFlag}: blocks until a node-mate's flag has been raised {@code count} times in this call.</li>
 * </ul>
 * A Publish may carry up to {@link NodeBuffer#PAYLOAD_BYTES} bytes in the flag's own line, and the AwaitFlag of that
 * raise may read them: a small message then costs a node-mate one cache miss, not two (decision 0202).
 * Multicast (decision 0146) sends one stream to every rank through the transport's multicast group:
 * <ul>
 *   <li>{@link Multicast}: on {@code root}, sends {@code buffer[offset..offset+length)} to every other rank; on every
 *       other rank, receives the root's bytes there. Every rank's program holds the same sequence of Multicast ops
 *       (same roots, same lengths): the k-th of each rank is one delivery. It blocks until the transport reports this
 *       rank's part done, so unlike a Recv it writes nothing before it is reached nor after it returns.</li>
 * </ul>
 *
 * Single-copy steps move bytes straight between the caller buffers of two node-mates, with one copy by the kernel
 * (cross-memory attach; decision 0143):
 * <ul>
 *   <li>{@link PeerRead}: pulls a range of a node-mate's SEND or RECV into a local buffer, done when reached.</li>
 *   <li>{@link PeerWrite}: pushes a local range into a node-mate's RECV, done when reached.</li>
 * </ul>
 * A peer access must come after a {@link Publish} of the owner in this call (the engine announces the owner's buffer
 * addresses, tagged with the call's sequence number, just before the owner's first Publish of the call), after every
 * write by the owner of the bytes it reads, and before the owner's last op (the owner awaits a Publish the accessor
 * makes after the access), so that no rank returns, and lets its caller reuse its buffers, while a node-mate still
 * reads or writes them. The checker rejects a program that breaks any of these ({@code PEER_RACE}).
 * The node buffer carries no data between calls, and a rank writes it only once every node-mate finished the last
 * call that used it (the engine sees to that). Within a call, a read of the node buffer must come after the write of
 * what it reads (an AwaitFlag of the writer's Publish), and a write after every read of what it overwrites: the
 * checker rejects any two accesses of overlapping bytes, one a write, that no Publish/AwaitFlag chain orders.
 * A program ends only when its own puts have left its buffers. Puts and Recvs match by (sender, receiver, tag):
 * each such triple occurs at most once and both sides state the same length. Because a Recv can land as soon as
 * its sender issues the put, a schedule must not put from, or copy from or into, a range that a Recv not yet
 * reached may write. The schedule checker enforces all of this.
 */
public sealed interface Op {

    /** Writes {@code length} bytes from {@code src[srcOffset..]} into {@code peer}'s Recv with this tag. */
    record Put(int peer, Buffer src, long srcOffset, long length, int tag) implements Op {
        public Put {
            checkRange(srcOffset, length);
            if (src == Buffer.RECV || src == Buffer.SEND || src == Buffer.TEMP) {
                // all buffers may be sources
            }
        }
    }

    /** Waits for {@code peer}'s put with {@code tag}, landing at {@code dst[dstOffset..dstOffset+length)}. */
    record Recv(int peer, int tag, Buffer dst, long dstOffset, long length) implements Op {
        public Recv {
            checkRange(dstOffset, length);
            if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }
    }

    /** Copies {@code length} bytes locally from {@code src[srcOffset..]} to {@code dst[dstOffset..]}. */
    record Copy(Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) implements Op {
        public Copy {
            checkRange(srcOffset, length);
            checkRange(dstOffset, 0);
            if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }
    }

    /**
     * Combines {@code length} bytes of {@code src[srcOffset..]} into {@code dst[dstOffset..]} with the call's
     * reduction operator, element by element: {@code dst = src op dst}. {@code src} is the <em>left</em> operand
     * (MPI's order), so a schedule that must combine in rank order (a non-commutative operator) puts the lower ranks'
     * partial result in {@code src}. The length is a whole number of elements; the engine checks that against the
     * call's element type. Source and destination must not overlap.
     */
    record Reduce(Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) implements Op {
        public Reduce {
            checkRange(srcOffset, length);
            checkRange(dstOffset, 0);
            if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }
    }

    /** Copies {@code length} bytes of {@code src[srcOffset..]} into the node buffer at {@code nodeOffset}. */
    record NodeWrite(Buffer src, long srcOffset, long nodeOffset, long length) implements Op {
        public NodeWrite {
            checkRange(srcOffset, length);
            NodeBuffer.checkRange(nodeOffset, length);
        }
    }

    /** Copies {@code length} bytes of the node buffer at {@code nodeOffset} into {@code dst[dstOffset..]}. */
    record NodeRead(long nodeOffset, Buffer dst, long dstOffset, long length) implements Op {
        public NodeRead {
            checkRange(dstOffset, length);
            NodeBuffer.checkRange(nodeOffset, length);
            if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }
    }

    /**
     * Raises this rank's node flag {@code flag} by one: everything this rank did before (its node-buffer writes and
     * reads) is visible to a node-mate whose {@link AwaitFlag} sees the raise. With {@code length > 0} the raise
     * carries {@code src[srcOffset..srcOffset+length)} (at most {@link NodeBuffer#PAYLOAD_BYTES}) in the flag's own
     * cache line, written before the raise's release (decision 0202): a node-mate's AwaitFlag of this raise reads it
     * with the flag, one line instead of a flag and a node-buffer slot. One raise per flag per call may carry bytes.
     */
    record Publish(int flag, Buffer src, long srcOffset, long length) implements Op {
        public Publish {
            NodeBuffer.checkFlag(flag);
            checkRange(srcOffset, length);
            NodeBuffer.checkPayload(length);
            if (length == 0) {
                src = Buffer.SEND;
                srcOffset = 0;
            }
        }

        /** A raise that carries no bytes. */
        public Publish(int flag) {
            this(flag, Buffer.SEND, 0, 0);
        }

        /** As a payload-less raise was always written (program digests stay what they were). */
        @Override
        public String toString() {
            return length == 0 ? "Publish[flag=" + flag + "]" : "Publish[flag=" + flag + ", src=" + src
                    + ", srcOffset=" + srcOffset + ", length=" + length + "]";
        }
    }

    /**
     * Waits until node-mate {@code peer} has raised its flag {@code flag} {@code count} times in this call. With
     * {@code length > 0} it then copies the bytes that raise carried (the {@code count}-th must be the one with a
     * payload of exactly {@code length} bytes) into {@code dst[dstOffset..]} (decision 0202).
     */
    record AwaitFlag(int peer, int flag, int count, Buffer dst, long dstOffset, long length) implements Op {
        public AwaitFlag {
            NodeBuffer.checkFlag(flag);
            if (peer < 0 || count < 1) {
                throw new IllegalArgumentException("an AwaitFlag needs a rank >= 0 and a count >= 1: " + peer + ", "
                        + count);
            }
            checkRange(dstOffset, length);
            NodeBuffer.checkPayload(length);
            if (length == 0) {
                dst = Buffer.RECV;
                dstOffset = 0;
            } else if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }

        /** A wait that reads no bytes. */
        public AwaitFlag(int peer, int flag, int count) {
            this(peer, flag, count, Buffer.RECV, 0, 0);
        }

        /** As a payload-less wait was always written (program digests stay what they were). */
        @Override
        public String toString() {
            return length == 0 ? "AwaitFlag[peer=" + peer + ", flag=" + flag + ", count=" + count + "]"
                    : "AwaitFlag[peer=" + peer + ", flag=" + flag + ", count=" + count + ", dst=" + dst
                    + ", dstOffset=" + dstOffset + ", length=" + length + "]";
        }
    }

    /**
     * One reliable delivery of {@code length} bytes at {@code buffer[offset..]} from {@code root} to every rank of the
     * communicator's multicast group: the root sends them, every other rank receives them into the same range.
     */
    record Multicast(int root, Buffer buffer, long offset, long length) implements Op {
        public Multicast {
            checkRange(offset, length);
            if (root < 0) {
                throw new IllegalArgumentException("a Multicast needs a root >= 0: " + root);
            }
        }
    }

    /**
     * Pulls {@code length} bytes of node-mate {@code peer}'s caller buffer {@code src} (SEND or RECV) at
     * {@code srcOffset} into the local {@code dst[dstOffset..]} (single copy, decision 0143).
     */
    record PeerRead(int peer, Buffer src, long srcOffset, Buffer dst, long dstOffset, long length) implements Op {
        public PeerRead {
            checkRange(srcOffset, length);
            checkRange(dstOffset, 0);
            checkPeer(peer, src);
            if (dst == Buffer.SEND) {
                throw new IllegalArgumentException("a schedule never writes the SEND buffer");
            }
        }
    }

    /**
     * Pushes {@code length} bytes of the local {@code src[srcOffset..]} into node-mate {@code peer}'s RECV at
     * {@code dstOffset} (single copy, decision 0143).
     */
    record PeerWrite(Buffer src, long srcOffset, int peer, Buffer dst, long dstOffset, long length) implements Op {
        public PeerWrite {
            checkRange(srcOffset, length);
            checkRange(dstOffset, 0);
            checkPeer(peer, dst);
            if (dst != Buffer.RECV) {
                throw new IllegalArgumentException("a PeerWrite writes only a node-mate's RECV, not its " + dst);
            }
        }
    }

    private static void checkPeer(int peer, Buffer remote) {
        if (peer < 0) {
            throw new IllegalArgumentException("a peer access needs a rank >= 0: " + peer);
        }
        if (remote == Buffer.TEMP) {
            throw new IllegalArgumentException("a node-mate's TEMP is the engine's scratch and is never announced;"
                    + " a peer access reaches only its SEND or RECV");
        }
    }

    private static void checkRange(long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
    }
}
