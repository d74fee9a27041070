package io.railcoll.transport.shm;

import io.railcoll.memory.CacheLines;
import io.railcoll.memory.Doorbell;
import io.railcoll.memory.Idler;
import io.railcoll.memory.SharedAccess;
import io.railcoll.memory.WaitStrategy;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A lock-free single-producer single-consumer byte stream from local rank {@code from} to local
 * rank {@code to} through a ring in the node region: it behaves like one direction of a socket,
 * with no message boundaries and no size ceiling (a message larger than the ring streams through
 * it while the reader drains it).
 *
 * <pre>
 * control block (256 bytes)                 data (capacity bytes, a power of two)
 * +0    tail  long  bytes ever written       byte i of the stream lives at data[i mod capacity]
 *              (writer's line, release)
 * +128  head  long  bytes ever read
 *              (reader's line, release)
 * +136  pulled long  the writer's single-copy puts (PULL frames) the reader has finished pulling
 *              (reader's line, release)
 * </pre>
 *
 * <p>Head and tail are ever-growing byte counts, never wrapped or reset: readable bytes are
 * {@code tail - head}, free bytes {@code capacity - (tail - head)}, with no full/empty ambiguity.
 * The writer copies into the free part, then publishes the new tail with a release store and
 * rings the reader's doorbell; the reader acquires the tail, copies out, publishes the new head
 * and rings the writer's doorbell (so a writer sleeping on a full ring wakes). Each side keeps a
 * private copy of the other's counter and re-reads the shared one only when that copy says it
 * cannot proceed, so in steady streaming each side mostly touches its own line. Transfers are
 * published in chunks of a quarter ring so the reader starts copying while the writer still fills.
 *
 * <p>Threading: one writer thread in the process of {@code from} calls {@link #write},
 * {@link #writable} and {@link #writeFully}; one reader thread in the process of {@code to}
 * calls {@link #read}, {@link #readable} and {@link #readFully}. The two ends keep separate
 * private state, so one object may serve both ends (in tests). Lifetime: owned by its
 * {@link NodeRegion}; unusable after the region is closed.
 */
public final class ShmChannel {
    static final long TAIL = 0;
    static final long HEAD = CacheLines.SLOT_BYTES;
    /**
     * In the reader's line beside {@link #HEAD}: a count, not a frame on the ring back, so that the answer to a
     * single-copy put never waits behind frames of a later call that the writer cannot take yet (decision 0217).
     */
    static final long PULLED = HEAD + Long.BYTES;

    private final MemorySegment segment;
    private final long tailOffset;
    private final long headOffset;
    private final long pulledOffset;
    private final long dataOffset;
    private final long capacity;
    private final long mask;
    private final long chunkBytes;
    private final int from;
    private final int to;
    private final Doorbell readerBell;
    private final Doorbell writerBell;
    private final PeerWait writerWait;
    private final PeerWait readerWait;
    private final WaitSite writerSite;
    private final WaitSite readerSite;

    // Writer-private: its own tail and its last view of the head.
    private long tail;
    private long cachedHead;
    // Reader-private: its own head and its last view of the tail.
    private long head;
    private long cachedTail;

    /**
     * A view of the ring whose control block is at {@code controlOffset} and data at
     * {@code dataOffset}; counters are read from memory, so a view may be made at any time.
     */
    ShmChannel(MemorySegment segment, long controlOffset, long dataOffset, int capacity, int from, int to,
               Doorbell writerBell, Doorbell readerBell, PeerWatch peers, WaitStrategy strategy) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two, got " + capacity);
        }
        this.segment = Objects.requireNonNull(segment, "segment");
        Objects.checkFromIndexSize(controlOffset, RegionLayout.RING_CONTROL_BYTES, segment.byteSize());
        Objects.checkFromIndexSize(dataOffset, capacity, segment.byteSize());
        this.tailOffset = controlOffset + TAIL;
        this.headOffset = controlOffset + HEAD;
        this.pulledOffset = controlOffset + PULLED;
        this.dataOffset = dataOffset;
        this.capacity = capacity;
        this.mask = capacity - 1L;
        this.chunkBytes = Math.max(1, capacity / 4);
        this.from = from;
        this.to = to;
        this.writerBell = writerBell;
        this.readerBell = readerBell;
        this.tail = SharedAccess.getLongAcquire(segment, tailOffset);
        this.head = SharedAccess.getLongAcquire(segment, headOffset);
        this.cachedHead = head;
        this.cachedTail = tail;
        this.writerSite = peer -> "free space in the ring from local rank " + from + " to local rank " + to
                + " (" + writable() + " of " + capacity + " bytes free)";
        this.readerSite = peer -> "data in the ring from local rank " + from + " to local rank " + to;
        this.writerWait = new PeerWait(new Idler(writerBell, strategy), peers, false);
        this.readerWait = new PeerWait(new Idler(readerBell, strategy), peers, false);
    }

    /**
     * Copies as much of {@code src[offset, offset+length)} into the ring as fits now, and
     * publishes it. Never blocks.
     *
     * @return bytes accepted, 0 if the ring is full (or {@code length} is 0)
     */
    public long write(MemorySegment src, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        long written = 0;
        while (written < length) {
            long want = Math.min(length - written, chunkBytes);
            long free = capacity - (tail - cachedHead);
            if (free < want) {
                cachedHead = SharedAccess.getLongAcquire(segment, headOffset);
                free = capacity - (tail - cachedHead);
                if (free == 0) {
                    break;
                }
            }
            long n = Math.min(want, free);
            copyIn(src, offset + written, n);
            tail += n;
            SharedAccess.setLongRelease(segment, tailOffset, tail);
            readerBell.ring();
            written += n;
        }
        return written;
    }

    /**
     * Copies up to {@code length} available bytes out of the ring into
     * {@code dst[offset, offset+length)} and frees their space. Never blocks.
     *
     * @return bytes delivered, 0 if the ring is empty (or {@code length} is 0)
     */
    public long read(MemorySegment dst, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, dst.byteSize());
        long delivered = 0;
        while (delivered < length) {
            long want = Math.min(length - delivered, chunkBytes);
            long available = cachedTail - head;
            if (available < want) {
                cachedTail = SharedAccess.getLongAcquire(segment, tailOffset);
                available = cachedTail - head;
                if (available == 0) {
                    break;
                }
            }
            long n = Math.min(want, available);
            copyOut(dst, offset + delivered, n);
            head += n;
            SharedAccess.setLongRelease(segment, headOffset, head);
            writerBell.ring();
            delivered += n;
        }
        return delivered;
    }

    /**
     * Publishes that the reader has finished pulling {@code count} of the writer's single-copy puts in all, and wakes
     * the writer, whose puts complete with it. Reader side.
     */
    public void publishPulled(long count) {
        SharedAccess.setLongRelease(segment, pulledOffset, count);
        writerBell.ring();
    }

    /** How many of the writer's single-copy puts the reader has finished pulling in all. Writer side. */
    public long pulled() {
        return SharedAccess.getLongAcquire(segment, pulledOffset);
    }

    /** Bytes the reader could read now. Reader side. */
    public long readable() {
        return SharedAccess.getLongAcquire(segment, tailOffset) - head;
    }

    /** Bytes the writer could write now. Writer side. */
    public long writable() {
        return capacity - (tail - SharedAccess.getLongAcquire(segment, headOffset));
    }

    /**
     * Writes all of {@code src[offset, offset+length)}, sleeping on the writer's doorbell while the
     * ring is full. {@code timeoutNs} bounds a stall (no byte accepted for that long), not the
     * whole transfer.
     *
     * @throws ShmException {@code PEER_LOST} if the reader's process exits or closes the region,
     *         {@code TIMED_OUT} if the ring stays full for {@code timeoutNs}
     */
    public void writeFully(MemorySegment src, long offset, long length, long timeoutNs) {
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        writerWait.begin(timeoutNs);
        try {
            long done = 0;
            while (done < length) {
                long n = write(src, offset + done, length - done);
                if (n > 0) {
                    done += n;
                    writerWait.progressed();
                } else {
                    writerWait.idle(to, writerSite);
                }
            }
        } finally {
            writerWait.end();
        }
    }

    /**
     * Reads exactly {@code length} bytes into {@code dst[offset, offset+length)}, sleeping on the
     * reader's doorbell while the ring is empty. {@code timeoutNs} bounds a stall.
     *
     * @throws ShmException {@code PEER_LOST} if the writer's process exits or closes the region,
     *         {@code TIMED_OUT} if no byte arrives for {@code timeoutNs}
     */
    public void readFully(MemorySegment dst, long offset, long length, long timeoutNs) {
        Objects.checkFromIndexSize(offset, length, dst.byteSize());
        readerWait.begin(timeoutNs);
        try {
            long done = 0;
            while (done < length) {
                long n = read(dst, offset + done, length - done);
                if (n > 0) {
                    done += n;
                    readerWait.progressed();
                } else {
                    readerWait.idle(from, readerSite);
                }
            }
        } finally {
            readerWait.end();
        }
    }

    public int from() {
        return from;
    }

    public int to() {
        return to;
    }

    public long capacity() {
        return capacity;
    }

    /** The doorbell this channel rings after writing: the reader's. */
    public Doorbell readerDoorbell() {
        return readerBell;
    }

    /** The doorbell this channel rings after reading: the writer's. */
    public Doorbell writerDoorbell() {
        return writerBell;
    }

    private void copyIn(MemorySegment src, long srcOffset, long n) {
        long index = tail & mask;
        long first = Math.min(n, capacity - index);
        MemorySegment.copy(src, srcOffset, segment, dataOffset + index, first);
        if (first < n) {
            MemorySegment.copy(src, srcOffset + first, segment, dataOffset, n - first);
        }
    }

    private void copyOut(MemorySegment dst, long dstOffset, long n) {
        long index = head & mask;
        long first = Math.min(n, capacity - index);
        MemorySegment.copy(segment, dataOffset + index, dst, dstOffset, first);
        if (first < n) {
            MemorySegment.copy(segment, dataOffset, dst, dstOffset + first, n - first);
        }
    }
}
