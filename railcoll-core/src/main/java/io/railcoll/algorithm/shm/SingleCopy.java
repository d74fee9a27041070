package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;

/**
 * The two flags of the single-copy algorithms (decision 0143) and their common ending. A rank's first Publish of
 * READY is when the engine announces its buffers; a rank's DONE says it will not touch a node-mate's buffers again
 * in this call, and every rank returns only after seeing every node-mate's DONE, so no buffer is reused while a
 * node-mate may still read or write it. Stateless.
 */
final class SingleCopy {
    /** Raised once a rank's buffers are announced and hold what node-mates may read. */
    static final int READY = 0;
    /** Raised once a rank has finished every access to node-mates' buffers. */
    static final int DONE = 1;

    private SingleCopy() {
    }

    /** Publishes DONE and awaits every node-mate's. */
    static ProgramBuilder finish(ProgramBuilder p, int rank, int size) {
        p.publish(DONE);
        for (int d = 1; d < size; d++) {
            p.awaitFlag((rank + d) % size, DONE, 1);
        }
        return p;
    }

    /**
     * Bytes of each node-mate's block the root moves itself (broadcast: pushes; gather: pulls) while that node-mate
     * moves the rest: an L-th, so that the root's L - 1 shares take about as long as each other rank's one rest
     * (each copies half with two ranks); a 64-byte multiple, so copies start on cache lines.
     */
    static long rootShare(long bytes, int size) {
        return bytes / size & ~63L;
    }
}
