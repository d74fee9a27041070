package io.railcoll.transport.tcp;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * A bounded single-producer single-consumer queue of pre-allocated, reusable slots: the producer fills a slot in
 * place and publishes it, the consumer reads it in place and releases it, so nothing is allocated per element and
 * no lock is taken. Publication is a release store of {@code tail}, observed by an acquire load; release of a slot
 * is a release store of {@code head}, which the producer reads before reusing the slot.
 *
 * <pre>
 *  producer: s = claim() (null when full) -> fill s -> publish()
 *  consumer: s = peek()  (null when empty) -> read s -> release()
 * </pre>
 *
 * <p>Threading: exactly one producer thread and one consumer thread (they may be the same). {@code head} and
 * {@code tail} sit on their own cache lines so the two threads do not false-share. Lifetime: plain heap object.
 */
final class SpscRing<T> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(SpscRing.class, "head", long.class);
            TAIL = l.findVarHandle(SpscRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final T[] slots;
    private final int mask;

    // Padding keeps head (written by the consumer) and tail (written by the producer) on separate cache lines.
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile long head;
    @SuppressWarnings("unused")
    private long p11, p12, p13, p14, p15, p16, p17;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile long tail;
    @SuppressWarnings("unused")
    private long p21, p22, p23, p24, p25, p26, p27;

    /** Producer-local: the consumer's head as last seen, so a claim rarely reads the shared field. */
    private long cachedHead;

    @SuppressWarnings("unchecked")
    SpscRing(int capacity, Supplier<T> slotFactory) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        slots = (T[]) new Object[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = slotFactory.get();
        }
        mask = capacity - 1;
    }

    int capacity() {
        return slots.length;
    }

    /** Producer: the next free slot to fill, or null when the ring is full. Call {@link #publish} after filling. */
    T claim() {
        long t = (long) TAIL.getOpaque(this);
        if (t - cachedHead >= slots.length) {
            cachedHead = (long) HEAD.getAcquire(this);
            if (t - cachedHead >= slots.length) {
                return null;
            }
        }
        return slots[(int) t & mask];
    }

    /** Producer: makes the claimed slot visible to the consumer. */
    void publish() {
        TAIL.setRelease(this, (long) TAIL.getOpaque(this) + 1);
    }

    /**
     * Producer: {@link #publish} with a full fence after it, for a producer that next reads a flag the consumer
     * writes before re-checking the ring (the sleep/wake handshake: neither side may miss the other).
     */
    void publishVolatile() {
        TAIL.setVolatile(this, (long) TAIL.getOpaque(this) + 1);
    }

    /** Consumer: the oldest published slot, or null when empty. Call {@link #release} when done with it. */
    T peek() {
        long h = (long) HEAD.getOpaque(this);
        if (h == (long) TAIL.getAcquire(this)) {
            return null;
        }
        return slots[(int) h & mask];
    }

    /** Consumer: returns the slot from {@link #peek} to the producer. */
    void release() {
        HEAD.setRelease(this, (long) HEAD.getOpaque(this) + 1);
    }

    /** Either thread: whether nothing is published (a volatile read, for the sleep/wake re-check). */
    boolean isEmpty() {
        return (long) HEAD.getVolatile(this) == (long) TAIL.getVolatile(this);
    }
}
