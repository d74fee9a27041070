package io.railcoll.transport.tcp;

/**
 * Decides which lanes carry a put (paper 000's policy): a put longer than the threshold is cut into one fragment
 * per live lane of (nearly) equal size; a shorter one goes whole on the next live lane of a round-robin shared by
 * all peers, so the k puts of one k-port step leave on k different rails. Lanes are numbered so that consecutive
 * lanes are on consecutive rails (lane l is on rail l mod rails), so the round-robin alternates rails first.
 *
 * <p>Threading: owner thread only (the round-robin cursor is not shared). No allocation: results go into arrays
 * the caller owns.
 */
final class Striper {
    private final int lanes;
    private final long thresholdBytes;
    private int next;

    Striper(int lanes, long thresholdBytes) {
        this.lanes = lanes;
        this.thresholdBytes = thresholdBytes;
    }

    /**
     * Plans the fragments of a {@code length}-byte put over the lanes in {@code liveMask}; returns how many
     * (0 when no lane is live), with fragment i on lane {@code laneOut[i]} at {@code offsetOut[i]},
     * {@code lengthOut[i]} bytes. The arrays hold at least as many entries as there are lanes.
     */
    int plan(long liveMask, long length, int[] laneOut, long[] offsetOut, long[] lengthOut) {
        int live = Long.bitCount(liveMask);
        if (live == 0) {
            return 0;
        }
        if (length > thresholdBytes && live > 1) {
            long chunk = (length + live - 1) / live;
            int frames = (int) ((length + chunk - 1) / chunk);
            long m = liveMask;
            for (int i = 0; i < frames; i++) {
                int lane = Long.numberOfTrailingZeros(m);
                m &= m - 1;
                laneOut[i] = lane;
                offsetOut[i] = i * chunk;
                lengthOut[i] = Math.min(chunk, length - i * chunk);
            }
            return frames;
        }
        int lane = next;
        while ((liveMask & (1L << lane)) == 0) {
            lane = lane + 1 == lanes ? 0 : lane + 1;
        }
        next = lane + 1 == lanes ? 0 : lane + 1;
        laneOut[0] = lane;
        offsetOut[0] = 0;
        lengthOut[0] = length;
        return 1;
    }
}
