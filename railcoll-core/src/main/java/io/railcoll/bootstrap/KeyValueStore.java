package io.railcoll.bootstrap;

import java.util.List;

/**
 * A launcher's key-value exchange (PMIx, PMI-1): every rank puts, all meet at a fence, then any rank reads what any
 * other put. Values are short printable strings without spaces or '=' (PMI-1's wire format forbids them).
 *
 * <p>One thread; closed (finalized) once.
 */
interface KeyValueStore extends AutoCloseable {

    /** The launcher's name for its interface, for messages: "PMIx", "PMI-1". */
    String protocol();

    /** Who this process is, as the launcher says. */
    RankIdentity identity();

    /** Longest value {@link #put} accepts. */
    int maxValueLength();

    void put(String key, String value);

    /** Makes every rank's puts visible to every rank; returns when all ranks arrived, or throws after {@code timeoutNs}. */
    void fence(long timeoutNs);

    /** What {@code rank} put under {@code key} before the last fence. */
    String get(int rank, String key, long timeoutNs);

    /** Lines for {@code railcoll info --env}. */
    List<String> details();

    @Override
    void close();
}
