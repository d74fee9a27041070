package io.railcoll.schedule;

/**
 * The symbolic buffers a schedule reads and writes; the engine binds them to memory per call.
 * SEND and RECV are the caller's (sizes per {@link Collective}); TEMP is scratch the engine provides,
 * {@link RankProgram#tempBytes()} long. A schedule never writes SEND.
 */
public enum Buffer {
    SEND,
    RECV,
    TEMP
}
