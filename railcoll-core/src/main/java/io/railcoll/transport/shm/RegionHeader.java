package io.railcoll.transport.shm;

import io.railcoll.memory.SharedAccess;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The first page of a node region: who made it, for which job and node, and the layout sizes, so
 * that a rank can check it attaches to the right thing and a later run can recognise a stale file.
 *
 * <pre>
 * offset  size  field
 *   0      8    magic              "railcoll" in ASCII, little-endian long 0x6c6c6f636c696172
 *   8      4    layout version     {@link #LAYOUT_VERSION}
 *  12      4    node id
 *  16      8    creator pid        written first, so an inspector can tell who is initialising
 *  24      8    creator start time milliseconds since the epoch, 0 if unknown (guards pid reuse)
 *  32      4    local size         ranks on the node
 *  36      4    ring bytes         per ordered pair
 *  40      8    reserved
 *  48      8    total bytes        of the file
 *  56      4    job id length      bytes, 1..64
 *  60      4    reserved
 *  64     64    job id             ASCII, zero padded
 * 128      8    ready              0 while initialising; {@link #READY} once everything above and
 *                                  every slot of the region is written (release store, last)
 * 136   3960    reserved
 * </pre>
 *
 * <p>Immutable value; {@link #write} and {@link #publishReady} are called once, by the creator.
 */
record RegionHeader(long magic, int layoutVersion, int nodeId, long creatorPid, long creatorStartMillis,
                    int localSize, int ringBytes, long totalBytes, String jobId) {
    static final long MAGIC = 0x6c6c6f636c696172L;
    /** 5: the node collectives' slots, node-wide words, mailboxes and node buffer are gone (decision 0194). */
    /** 8: the done word's line keeps each flag's raise before its latest (decision 0242). */
    static final int LAYOUT_VERSION = 8;
    static final long READY = 0x5944414552L; // "READY"
    static final int MAX_JOB_ID_BYTES = 64;

    private static final long OFF_MAGIC = 0;
    private static final long OFF_VERSION = 8;
    private static final long OFF_NODE = 12;
    private static final long OFF_PID = 16;
    private static final long OFF_START = 24;
    private static final long OFF_LOCAL_SIZE = 32;
    private static final long OFF_RING_BYTES = 36;
    private static final long OFF_TOTAL = 48;
    private static final long OFF_JOB_LENGTH = 56;
    private static final long OFF_JOB = 64;
    static final long OFF_READY = 128;

    /** The header a creator with this identity writes for {@code layout}. */
    static RegionHeader of(String jobId, int nodeId, long pid, long startMillis, RegionLayout layout) {
        return new RegionHeader(MAGIC, LAYOUT_VERSION, nodeId, pid, startMillis, layout.localSize(),
                layout.ringBytes(), layout.totalBytes(), jobId);
    }

    /** Reads the fields (not the ready word); a file that is not a railcoll region gives a wrong {@link #magic}. */
    static RegionHeader read(MemorySegment segment) {
        int jobLength = segment.get(ValueLayout.JAVA_INT, OFF_JOB_LENGTH);
        String jobId = "";
        if (jobLength > 0 && jobLength <= MAX_JOB_ID_BYTES) {
            byte[] bytes = segment.asSlice(OFF_JOB, jobLength).toArray(ValueLayout.JAVA_BYTE);
            jobId = new String(bytes, StandardCharsets.US_ASCII);
        }
        return new RegionHeader(segment.get(ValueLayout.JAVA_LONG, OFF_MAGIC), segment.get(ValueLayout.JAVA_INT, OFF_VERSION),
                segment.get(ValueLayout.JAVA_INT, OFF_NODE), segment.get(ValueLayout.JAVA_LONG, OFF_PID),
                segment.get(ValueLayout.JAVA_LONG, OFF_START), segment.get(ValueLayout.JAVA_INT, OFF_LOCAL_SIZE),
                segment.get(ValueLayout.JAVA_INT, OFF_RING_BYTES), segment.get(ValueLayout.JAVA_LONG, OFF_TOTAL), jobId);
    }

    /** Writes every field but the ready word: the pid first, so that an inspector can see who initialises. */
    void write(MemorySegment segment) {
        segment.set(ValueLayout.JAVA_LONG, OFF_PID, creatorPid);
        segment.set(ValueLayout.JAVA_LONG, OFF_START, creatorStartMillis);
        segment.set(ValueLayout.JAVA_LONG, OFF_MAGIC, magic);
        segment.set(ValueLayout.JAVA_INT, OFF_VERSION, layoutVersion);
        segment.set(ValueLayout.JAVA_INT, OFF_NODE, nodeId);
        segment.set(ValueLayout.JAVA_INT, OFF_LOCAL_SIZE, localSize);
        segment.set(ValueLayout.JAVA_INT, OFF_RING_BYTES, ringBytes);
        segment.set(ValueLayout.JAVA_LONG, OFF_TOTAL, totalBytes);
        byte[] job = jobId.getBytes(StandardCharsets.US_ASCII);
        segment.set(ValueLayout.JAVA_INT, OFF_JOB_LENGTH, job.length);
        MemorySegment.copy(job, 0, segment, ValueLayout.JAVA_BYTE, OFF_JOB, job.length);
    }

    /** The creator's last write: everything before it becomes visible to a rank that sees {@link #isReady}. */
    static void publishReady(MemorySegment segment) {
        SharedAccess.setLongRelease(segment, OFF_READY, READY);
    }

    static boolean isReady(MemorySegment segment) {
        return SharedAccess.getLongAcquire(segment, OFF_READY) == READY;
    }

    boolean isRailcollRegion() {
        return magic == MAGIC;
    }

    /** What differs between this header and what a rank expects, or null if it matches. */
    String mismatchWith(RegionHeader expected) {
        StringBuilder diff = new StringBuilder();
        if (layoutVersion != expected.layoutVersion) {
            diff.append(" layout version ").append(layoutVersion).append(" vs ").append(expected.layoutVersion).append(';');
        }
        if (localSize != expected.localSize) {
            diff.append(" local size ").append(localSize).append(" vs ").append(expected.localSize).append(';');
        }
        if (ringBytes != expected.ringBytes) {
            diff.append(" ring bytes ").append(ringBytes).append(" vs ").append(expected.ringBytes).append(';');
        }
        if (totalBytes != expected.totalBytes) {
            diff.append(" total bytes ").append(totalBytes).append(" vs ").append(expected.totalBytes).append(';');
        }
        return diff.isEmpty() ? null : "region has (vs this rank's config):" + diff;
    }
}
