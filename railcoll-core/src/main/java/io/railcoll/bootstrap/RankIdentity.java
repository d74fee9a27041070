package io.railcoll.bootstrap;

/**
 * Who a process is in its job, as its launcher tells it.
 *
 * @param rank      0..size-1
 * @param size      ranks in the job
 * @param localRank this rank's index among the ranks of its node, -1 when the launcher does not say
 * @param localSize ranks on this rank's node, -1 when the launcher does not say
 * @param node      a key shared by the ranks of one node (normally the host name)
 * @param jobId     names the job in handshakes and shared-memory file names
 */
public record RankIdentity(int rank, int size, int localRank, int localSize, String node, String jobId) {

    public RankIdentity {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " of " + size + " is not a valid rank");
        }
        if (localSize > size || localRank >= size) {
            throw new IllegalArgumentException("local rank " + localRank + " of " + localSize + " does not fit a job of "
                    + size);
        }
    }

    /** Whether the launcher says that every rank of the job runs on this node. */
    public boolean wholeJobOnThisNode() {
        return localSize == size;
    }

    /** A job id made of what a launcher calls its job, safe in a file name. */
    static String jobIdFrom(String prefix, String launcherName) {
        String clean = launcherName.replaceAll("[^A-Za-z0-9._-]", "_");
        if (clean.length() > 48) {
            clean = clean.substring(clean.length() - 48);
        }
        return prefix + clean;
    }
}
