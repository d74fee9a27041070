package io.railcoll.transport.shm;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import io.railcoll.memory.SharedAccess;

/**
 * Knows the processes behind the local ranks of a region and whether they are still there: a
 * peer is lost when its process has exited (checked through a {@link ProcessHandle} taken when
 * it attached, which is immune to pid reuse) or when it closed its end of the region (its attach
 * slot says detached). Waits call this every few milliseconds, so node-mates of a killed rank
 * fail within milliseconds with {@link ShmException.Reason#PEER_LOST} instead of at their deadline.
 *
 * <p>Thread-safe (handles are immutable, slots are read with acquire). Lifetime: that of its region.
 */
public final class PeerWatch {
    private final MemorySegment segment;
    private final RegionLayout layout;
    private final ProcessHandle[] handles;
    private final long[] pids;
    private final int self;
    /** Start ticks of each local rank's process when it attached (-1 unknown): a different value means pid reuse. */
    private final long[] startTicks;
    /** Reads the start ticks again at every check, allocating nothing. */
    private final StartTicksReader reader;
    private final String where;
    /** The local rank whose process {@link #requireAllAliveInTurn} looks at next. */
    private int nextInTurn;

    /**
     * @param handles process of each local rank, taken when it attached (null for self)
     * @param where this rank, for messages: "job J, node N, local rank R"
     */
    PeerWatch(MemorySegment segment, RegionLayout layout, ProcessHandle[] handles, long[] pids, int self, String where) {
        this.segment = segment;
        this.layout = layout;
        this.handles = handles;
        this.pids = pids;
        this.self = self;
        this.where = where;
        this.startTicks = new long[pids.length];
        this.reader = new StartTicksReader(pids);
        for (int r = 0; r < pids.length; r++) {
            startTicks[r] = pids[r] > 0 && r != self ? Processes.startTicks(pids[r]) : -1;
        }
    }

    /** A watch that checks nothing: for channels over plain memory in tests. */
    static PeerWatch unwatched(int localSize, int self) {
        return new PeerWatch(null, null, new ProcessHandle[localSize], new long[localSize], self,
                "unwatched memory, local rank " + self);
    }

    /**
     * Why local rank {@code localRank} can send nothing more although it did not close cleanly, or null. A rank that
     * closed its region cleanly is not lost even after its process ended: what it wrote before (its goodbye last)
     * stays readable in this rank's mapping. Lost means it abandoned its start-up or its process ended without
     * closing (killed, crashed).
     */
    public String crashOf(int localRank) {
        if (segment == null || localRank == self) {
            return null;
        }
        long state = SharedAccess.getLongAcquire(segment, layout.attachSlot(localRank) + RegionLayout.ATTACH_STATE);
        if (state == RegionLayout.STATE_ABANDONED) {
            return "abandoned the region";
        }
        if (state != RegionLayout.STATE_DETACHED && pids[localRank] > 0 && startTicks[localRank] >= 0
                && reader.startTicks(localRank) != startTicks[localRank]) {
            return "ended without closing its communicator (killed or crashed)";
        }
        return null;
    }

    /** The pid of local rank {@code localRank}. */
    public long pid(int localRank) {
        return pids[localRank];
    }

    /** Whether local rank {@code localRank}'s process is running and has not closed the region. */
    public boolean isAlive(int localRank) {
        return lossOf(localRank) == null;
    }

    /**
     * The lowest local rank (other than this one) whose process exited or that closed the
     * region, or -1 if all are there. Reads {@code /proc} once per rank: call it every few
     * milliseconds of waiting, not on every spin.
     */
    public int firstLost() {
        for (int r = 0; r < pids.length; r++) {
            if (r != self && lossOf(r) != null) {
                return r;
            }
        }
        return -1;
    }

    /** Throws {@link ShmException.Reason#PEER_LOST} if {@code peer} is gone. */
    void requireAlive(int peer, WaitSite site, long waitedNs) {
        String loss = lossOf(peer);
        if (loss != null) {
            throw lost(peer, loss, peer, site, waitedNs);
        }
    }

    /**
     * Throws {@link ShmException.Reason#PEER_LOST} naming a gone local rank, if any: first one whose process ended
     * without closing its end (the likely cause), else the first that closed it (often a consequence: it failed
     * because the other died).
     */
    void requireAllAlive(int awaitedPeer, WaitSite site, long waitedNs) {
        for (int r = 0; r < pids.length; r++) {
            String crash = r == self ? null : crashOf(r);
            if (crash != null) {
                throw lost(r, crash.startsWith("ended") ? "has exited" : crash, awaitedPeer, site, waitedNs);
            }
        }
        for (int r = 0; r < pids.length; r++) {
            String loss = r == self ? null : lossOf(r);
            if (loss != null) {
                throw lost(r, loss, awaitedPeer, site, waitedNs);
            }
        }
    }

    /**
     * Like {@link #requireAllAlive} but looks at one process per call, in turn (a closed region is seen for all at
     * once: that is a load): reading {@code /proc} for every node-mate at every beat of a long wait cost a rank
     * blocked in a node collective of 16 ranks several percent of a core. A killed node-mate is still named within
     * L beats. Callers share the turn without synchronization; a race only changes which rank is looked at next.
     */
    void requireAllAliveInTurn(int awaitedPeer, WaitSite site, long waitedNs) {
        for (int r = 0; r < pids.length; r++) {
            if (r != self && segment != null) {
                long state = SharedAccess.getLongAcquire(segment, layout.attachSlot(r) + RegionLayout.ATTACH_STATE);
                if (state == RegionLayout.STATE_DETACHED || state == RegionLayout.STATE_ABANDONED) {
                    // A node-mate that closed is often one that failed because another died: name the dead one.
                    requireAllAlive(awaitedPeer, site, waitedNs);
                }
            }
        }
        int r = nextInTurn;
        nextInTurn = (r + 1) % pids.length;
        String loss = r == self ? null : lossOf(r);
        if (loss != null) {
            throw lost(r, loss, awaitedPeer, site, waitedNs);
        }
    }

    /** "local rank 2 (pid 1234, still alive)": for timeout messages. */
    String describe(int peer) {
        if (peer < 0 || peer >= pids.length) {
            return "the other local ranks";
        }
        return "local rank " + peer + (pids[peer] > 0 ? " (pid " + pids[peer] + ", still alive)" : "");
    }

    private ShmException lost(int gone, String loss, int awaitedPeer, WaitSite site, long waitedNs) {
        return new ShmException(ShmException.Reason.PEER_LOST, gone, where + ": local rank " + gone + " (pid " + pids[gone]
                + ") " + loss + " while this rank awaited " + site.awaited(awaitedPeer) + "; waited "
                + millis(waitedNs) + " ms");
    }

    String where() {
        return where;
    }

    String lossOf(int peer) {
        if (segment == null || peer == self) {
            return null;
        }
        long state = SharedAccess.getLongAcquire(segment, layout.attachSlot(peer) + RegionLayout.ATTACH_STATE);
        if (state == RegionLayout.STATE_DETACHED || state == RegionLayout.STATE_ABANDONED) {
            return "closed its end of the region";
        }
        if (pids[peer] > 0 && startTicks[peer] >= 0 && reader.startTicks(peer) != startTicks[peer]) {
            return "has exited";
        }
        return null;
    }

    /** Closes the files the checks read; with the region. */
    void close() {
        reader.close();
    }

    static long millis(long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }
}
