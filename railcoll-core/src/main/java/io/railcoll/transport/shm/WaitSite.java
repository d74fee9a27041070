package io.railcoll.transport.shm;

/**
 * Something that waits on a peer and can say what it waits for, for error messages. Called only
 * when a wait fails, so it may allocate.
 */
interface WaitSite {
    /** What is awaited from local rank {@code peer}, e.g. "free space in the ring from local rank 0 to 1". */
    String awaited(int peer);
}
