package io.railcoll.trace;

/**
 * The times of the ops of one armed collective call on this rank: when each op of its program completed, and its
 * kind, so a reader can split the call into its phases (node gather, inter-node exchange, node broadcast). Armed by
 * the caller before the call ({@link #arm}), filled by the engine's driving thread, read after the call. Only when
 * {@link CallCounters#ON}; one call at a time; the driving thread only (the caller is that thread).
 */
public final class OpTrace {
    /** Ops recorded at most per call; later ones are dropped (a 1-byte all-gather has a few dozen). */
    public static final int CAPACITY = 512;
    /** The kind recorded for the call's start (program entered) and its finish (every send delivered). */
    public static final int START = -1;
    public static final int FINISH = -2;
    /** Node-phased algorithms (run around the engine): call entered, node gather done, node broadcast done. */
    public static final int NODE_CALL = -3;
    public static final int NODE_GATHERED = -4;
    public static final int NODE_BROADCAST = -5;

    private static final long[] TIMES = new long[CAPACITY];
    private static final int[] KINDS = new int[CAPACITY];
    private static int count;
    private static boolean armed;
    private static long armedSeq = -1;

    private OpTrace() {
    }

    /** Records the ops of the next call started on this rank (until {@link #disarm}). */
    public static void arm() {
        count = 0;
        armed = true;
        armedSeq = -1;
    }

    public static void disarm() {
        armed = false;
    }

    /** The engine's hook: op of {@code kind} of call {@code seq} completed now (the first call seen is the one traced). */
    public static void op(long seq, int kind) {
        if (!armed) {
            return;
        }
        if (armedSeq < 0) {
            armedSeq = seq;
        } else if (seq != armedSeq) {
            return;
        }
        if (count < CAPACITY) {
            TIMES[count] = System.nanoTime();
            KINDS[count] = kind;
            count++;
        }
    }

    /** Records a point of the armed call outside the engine (node-phased algorithms), whatever its number. */
    public static void mark(int kind) {
        if (armed && count < CAPACITY) {
            TIMES[count] = System.nanoTime();
            KINDS[count] = kind;
            count++;
        }
    }

    public static int count() {
        return count;
    }

    public static long time(int i) {
        return TIMES[i];
    }

    public static int kind(int i) {
        return KINDS[i];
    }
}
