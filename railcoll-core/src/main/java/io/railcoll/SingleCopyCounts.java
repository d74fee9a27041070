package io.railcoll;

/**
 * What went single-copy between this rank and its node-mates (docs/shared-memory.md): a snapshot.
 *
 * @param putsSent    puts of this rank that node-mates pulled straight from its memory
 * @param bytesSent   their bytes
 * @param putsPulled  puts of node-mates this rank pulled into its buffers
 * @param bytesPulled their bytes
 * @param nodeTransfers single-copy node steps this rank carried out (peer reads and writes between the node-mates'
 *                      own buffers, in the {@code *.shm-single-copy} algorithms' programs)
 */
public record SingleCopyCounts(long putsSent, long bytesSent, long putsPulled, long bytesPulled, long nodeTransfers) {
    public static final SingleCopyCounts NONE = new SingleCopyCounts(0, 0, 0, 0, 0);
}
