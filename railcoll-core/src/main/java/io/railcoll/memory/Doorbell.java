package io.railcoll.memory;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * One rank's wake-up word: the rank sleeps on it when it has nothing to do, and anyone who gives
 * the rank work (a shared-memory sender in another process, a TCP progress thread in the same
 * process, a peer publishing a collective flag) rings it.
 *
 * <pre>
 * offset  size  field
 *   0      4    sequence  futex word; bumped by a ring that finds a sleeper
 *   4      4    waiters   number of threads announced as about to sleep (or asleep)
 *   8    120    padding   the doorbell owns a 128-byte slot
 * </pre>
 *
 * <p><b>Protocol.</b> A sleeper first announces itself ({@link #arm}: waiters+1, then reads the
 * sequence as its key), then re-checks its condition, and only then sleeps on the key
 * ({@link #await}). A ringer publishes its data, issues a full fence, and reads the waiter count:
 * zero means no syscall and no write at all (the fast path is a fence and a load of a line
 * that stays shared in both caches); non-zero means it bumps the sequence and calls
 * {@code FUTEX_WAKE}. This is a Dekker handshake: either the ringer sees the announcement, or
 * the sleeper's re-check sees the data; and a bump between the sleeper's key read and its sleep
 * makes the kernel return at once because the word no longer equals the key. So no wake is lost,
 * and the bounded timeout of every sleep is only a safety net (and the beat of liveness checks).
 *
 * <p>Threading: {@link #ring} from any thread of any process; {@link #arm}/{@link #await}/
 * {@link #disarm} by the owning rank's waiting threads, normally through an {@link Idler}.
 * Lifetime: a view on the segment; valid while its arena is open.
 */
public final class Doorbell {
    /** Bytes one doorbell occupies in a layout. */
    public static final long BYTES = CacheLines.SLOT_BYTES;
    private static final long SEQUENCE = 0;
    private static final long WAITERS = 4;

    private final MemorySegment segment;
    private final long offset;

    /** A view on the doorbell at {@code offset} (4-byte aligned, {@link #BYTES} long, zeroed when first laid out). */
    public Doorbell(MemorySegment segment, long offset) {
        this.segment = Objects.requireNonNull(segment, "segment");
        Objects.checkFromIndexSize(offset, BYTES, segment.byteSize());
        if (offset % 4 != 0) {
            throw new IllegalArgumentException("doorbell offset must be 4-byte aligned: " + offset);
        }
        this.offset = offset;
    }

    /**
     * Wakes the owner if it announced that it sleeps. Call after publishing (release-storing) the
     * work the owner should see. Costs a fence and a load when nobody sleeps.
     */
    public void ring() {
        // Orders the caller's earlier publication before the waiter-count load (the Dekker
        // handshake with arm()); a release store alone may be passed by a later load.
        VarHandle.fullFence();
        if (SharedAccess.getIntVolatile(segment, offset + WAITERS) != 0) {
            if (CallCounters.ON) {
                CallCounters.add(Event.DOORBELL_RING_WAKE);
            }
            SharedAccess.getAndAddInt(segment, offset + SEQUENCE, 1);
            Futex.wake(segment, offset + SEQUENCE, Integer.MAX_VALUE);
        } else if (CallCounters.ON) {
            CallCounters.add(Event.DOORBELL_RING_QUIET);
        }
    }

    /**
     * Rings every doorbell of {@code bells} except index {@code skip} with a single fence: what
     * a rank does after publishing a flag that all its node-mates may be waiting for.
     */
    public static void ringAll(Doorbell[] bells, int skip) {
        VarHandle.fullFence();
        for (int i = 0; i < bells.length; i++) {
            Doorbell bell = bells[i];
            if (i != skip && SharedAccess.getIntVolatile(bell.segment, bell.offset + WAITERS) != 0) {
                if (CallCounters.ON) {
                    CallCounters.add(Event.DOORBELL_RING_WAKE);
                }
                SharedAccess.getAndAddInt(bell.segment, bell.offset + SEQUENCE, 1);
                Futex.wake(bell.segment, bell.offset + SEQUENCE, Integer.MAX_VALUE);
            } else if (i != skip && CallCounters.ON) {
                CallCounters.add(Event.DOORBELL_RING_QUIET);
            }
        }
    }

    /**
     * Announces a sleeper and returns the key to sleep on. The caller must re-check its
     * condition after this call and before {@link #await}, and must {@link #disarm} once.
     */
    public int arm() {
        SharedAccess.getAndAddInt(segment, offset + WAITERS, 1);
        VarHandle.fullFence();
        return SharedAccess.getIntVolatile(segment, offset + SEQUENCE);
    }

    /** Withdraws one announcement made by {@link #arm}. */
    public void disarm() {
        SharedAccess.getAndAddInt(segment, offset + WAITERS, -1);
    }

    /**
     * Sleeps until a ring, a change since {@code key}, or {@code timeoutNs}. Only while armed.
     */
    public Futex.Outcome await(int key, long timeoutNs) {
        return Futex.await(segment, offset + SEQUENCE, key, timeoutNs);
    }

    /** The current sequence: a fresh key for a thread that stays armed after a wake. */
    public int sequence() {
        return SharedAccess.getIntVolatile(segment, offset + SEQUENCE);
    }

    /** How many sleepers are announced now (diagnostics and tests). */
    public int waiters() {
        return SharedAccess.getIntVolatile(segment, offset + WAITERS);
    }
}
