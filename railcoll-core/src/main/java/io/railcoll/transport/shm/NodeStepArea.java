package io.railcoll.transport.shm;

import io.railcoll.memory.Doorbell;
import io.railcoll.memory.SharedAccess;
import io.railcoll.transport.NodeArea;
import java.lang.foreign.MemorySegment;

/**
 * The node region's offer to the engine's node steps ({@link NodeArea}, decision 0101): the node-step buffer and the
 * node-step words of {@link RegionLayout}, with the node's doorbells to wake sleepers. A raise rings every node-mate's
 * doorbell that has a sleeper (one fence, and a futex wake only where someone sleeps), so a rank waiting for a flag
 * sleeps, rather than spins, when ranks outnumber processors. Separate from the {@link NodeCollectives} buffer and
 * counters, so a call of those never meets a schedule's node steps.
 *
 * <p>Threading: the owner thread raises and sleeps; reads from any thread. Lifetime: its {@link NodeRegion}'s.
 */
final class NodeStepArea implements NodeArea {
    private final MemorySegment segment;
    private final RegionLayout layout;
    private final int me;
    private final Doorbell[] bells;
    private final PeerWatch peers;
    private final MemorySegment buffer;

    NodeStepArea(MemorySegment segment, RegionLayout layout, int me, Doorbell[] bells, PeerWatch peers) {
        this.segment = segment;
        this.layout = layout;
        this.me = me;
        this.bells = bells;
        this.peers = peers;
        this.buffer = segment.asSlice(layout.stepBufferOffset(), RegionLayout.STEP_BUFFER_BYTES);
    }

    @Override
    public int localRank() {
        return me;
    }

    @Override
    public MemorySegment buffer() {
        return buffer;
    }

    @Override
    public long flag(int localRank, int flag) {
        return SharedAccess.getLongAcquire(segment, layout.stepWord(localRank, flag));
    }

    @Override
    public void raise(int flag, long value) {
        SharedAccess.setLongRelease(segment, layout.stepWord(me, flag), value);
        Doorbell.ringAll(bells, me);
    }

    @Override
    public void await(int localRank, int flag, long value, long maxWaitNs) {
        Doorbell own = bells[me];
        int key = own.arm();
        try {
            // Re-check after announcing: a raise that came before the announcement found no sleeper.
            if (flag(localRank, flag) >= value) {
                return;
            }
            own.await(key, maxWaitNs);
        } finally {
            own.disarm();
        }
    }

    @Override
    public boolean alive(int localRank) {
        return peers.isAlive(localRank);
    }
}
