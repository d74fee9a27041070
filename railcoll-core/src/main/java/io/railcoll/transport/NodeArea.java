package io.railcoll.transport;

import java.lang.foreign.MemorySegment;

/**
 * The capability a node's shared memory offers the engine's node steps (decision 0101): a buffer every rank of the
 * node maps, and per rank a few flags that only their owner raises and a done word. Values only grow: the engine
 * writes {@code seq << 20 | count} (the call's sequence number and how often the flag was raised in it), so a flag
 * left by an earlier call never satisfies a later call's wait. It holds no collective logic: what is copied where and
 * who waits for whom is the schedule's.
 *
 * <p>Threading: the owner thread raises its own flags and writes the buffer; any thread may read.
 */
public interface NodeArea {

    /** This rank's index among the ranks of its node. */
    int localRank();

    /** The node buffer, shared by the node's ranks. */
    MemorySegment buffer();

    /** The word {@code flag} of local rank {@code localRank} (acquire). */
    long flag(int localRank, int flag);

    /** Sets this rank's word {@code flag} to {@code value} (release) and wakes the node-mates that sleep. */
    void raise(int flag, long value);

    /**
     * Sleeps at most {@code maxWaitNs} until local rank {@code localRank}'s word {@code flag} reaches {@code value}
     * or anything wakes this rank (a ring of its doorbell); returns at once if the word already has.
     */
    void await(int localRank, int flag, long value, long maxWaitNs);

    /** Whether local rank {@code localRank} is alive and attached. */
    boolean alive(int localRank);
}
