package io.railcoll.engine;

import io.railcoll.schedule.Collective;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What the last {@link #SIZE} calls were, by sequence number modulo SIZE, to check a probe that arrives after this
 * rank's call finished (decision 0041). Written by the engine's driving thread as each call is posted, read by any
 * transport thread; an entry is overwritten in place (nothing allocated per call), so a reader re-reads the
 * sequence number after the fields and ignores an entry that changed under it.
 */
final class CallHistory {
    /** How many calls are kept (a power of two, larger than the engine's window). */
    static final int SIZE = 64;

    private static final VarHandle SEQ;

    static {
        try {
            SEQ = MethodHandles.lookup().findVarHandle(Entry.class, "seq", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Entry {
        long seq;
        Collective collective;
        int operands;
        int root;
        long blockBytes;
        int algorithm;
        String algorithmId;
    }

    /** A consistent copy of one entry, for a reader. */
    record Call(long seq, Collective collective, int operands, int root, long blockBytes, int algorithm,
                String algorithmId) {
        /** The frame header's collective field for this call: the code, with the type and operator above it. */
        int wireCollective() {
            return collective.wireCode() | operands << 8;
        }
    }

    private final Entry[] entries = new Entry[SIZE];

    CallHistory() {
        for (int i = 0; i < SIZE; i++) {
            entries[i] = new Entry();
        }
    }

    void record(long seq, Collective collective, int operands, int root, long blockBytes, int algorithm,
                String algorithmId) {
        Entry e = entries[(int) (seq & (SIZE - 1))];
        // A sequence lock without a fence (every call records here, issue 21): 0 first, so that readers which
        // started on the previous call see it change, ordered before the fields by the store-store fence (free on
        // x86); the number last, a release store.
        SEQ.setOpaque(e, 0L);
        VarHandle.storeStoreFence();
        e.collective = collective;
        e.operands = operands;
        e.root = root;
        e.blockBytes = blockBytes;
        e.algorithm = algorithm;
        e.algorithmId = algorithmId;
        SEQ.setRelease(e, seq);
    }

    /** Call {@code seq} as recorded, or null when it is no longer (or not consistently) on record. */
    Call find(long seq) {
        Entry e = entries[(int) (seq & (SIZE - 1))];
        if ((long) SEQ.getAcquire(e) != seq) {
            return null;
        }
        Call c = new Call(seq, e.collective, e.operands, e.root, e.blockBytes, e.algorithm, e.algorithmId);
        VarHandle.loadLoadFence(); // the fields are read before the number is read again
        return (long) SEQ.getAcquire(e) == seq ? c : null;
    }
}
