package mpi;

import java.util.Arrays;

/**
 * What MPI's neighbourhood collectives must deliver, computed from the test's own account of every rank's neighbours
 * (never from the code under test): slot {@code i} of rank {@code r} receives from {@code sources[r][i]} with tag
 * {@code recvTags[r][i]}, and the k-th such slot for a (source, tag) pairs with the k-th send slot of that source
 * towards {@code r} with that tag (point-to-point is non-overtaking). Payloads say who sent which block.
 */
record NeighbourModel(int[][] sources, int[][] recvTags, int[][] destinations, int[][] sendTags) {
    /** Elements per block in the fixed-size forms. */
    static final int COUNT = 2;
    /** Elements between the starts of two blocks in the v-forms (their counts are at most 3: gaps stay -1). */
    static final int STRIDE = 4;

    /** Every message tagged 0 (graphs and distributed graphs): {@code in[r]} and {@code out[r]} per rank. */
    static NeighbourModel ordered(int[][] in, int[][] out) {
        int[][] zeroIn = new int[in.length][];
        int[][] zeroOut = new int[out.length][];
        for (int r = 0; r < in.length; r++) {
            zeroIn[r] = in[r] == null ? null : new int[in[r].length];
            zeroOut[r] = out[r] == null ? null : new int[out[r].length];
        }
        return new NeighbourModel(in, zeroIn, out, zeroOut);
    }

    /** A Cartesian grid over the first prod(dims) of {@code size} ranks, from coordinates computed here. */
    static NeighbourModel cart(int size, int[] dims, boolean[] periods) {
        int cells = Arrays.stream(dims).reduce(1, (a, b) -> a * b);
        int[][] in = new int[size][];
        int[][] recvTags = new int[size][];
        int[][] sendTags = new int[size][];
        for (int r = 0; r < cells; r++) {
            int[] coords = new int[dims.length];
            for (int d = dims.length - 1, rest = r; d >= 0; d--) {
                coords[d] = rest % dims[d];
                rest /= dims[d];
            }
            in[r] = new int[2 * dims.length];
            recvTags[r] = new int[2 * dims.length];
            sendTags[r] = new int[2 * dims.length];
            for (int d = 0; d < dims.length; d++) {
                for (int side = 0; side < 2; side++) {
                    int[] at = coords.clone();
                    at[d] += side == 0 ? -1 : 1;
                    int slot = 2 * d + side;
                    recvTags[r][slot] = slot;
                    sendTags[r][slot] = slot ^ 1; // what goes up lands in the upper one's lower slot
                    if (!periods[d] && (at[d] < 0 || at[d] >= dims[d])) {
                        in[r][slot] = MPI.PROC_NULL;
                        continue;
                    }
                    at[d] = Math.floorMod(at[d], dims[d]);
                    int rank = 0;
                    for (int k = 0; k < dims.length; k++) {
                        rank = rank * dims[k] + at[k];
                    }
                    in[r][slot] = rank;
                }
            }
        }
        return new NeighbourModel(in, recvTags, in, sendTags);
    }

    /** The (sender, its send slot) whose block lands in slot {@code slot} of {@code r}; null for {@code PROC_NULL}. */
    int[] match(int r, int slot) {
        int s = sources[r][slot];
        if (s == MPI.PROC_NULL) {
            return null;
        }
        int tag = recvTags[r][slot];
        int k = 0;
        for (int i = 0; i < slot; i++) {
            if (sources[r][i] == s && recvTags[r][i] == tag) {
                k++;
            }
        }
        for (int j = 0; j < destinations[s].length; j++) {
            if (destinations[s][j] == r && sendTags[s][j] == tag && k-- == 0) {
                return new int[] {s, j};
            }
        }
        throw new AssertionError("the model has no send for rank " + r + "'s slot " + slot);
    }

    /** What sender {@code s} puts in send slot {@code j}, element {@code e} (all-to-all forms). */
    static int payload(int s, int j, int e) {
        return s * 1000 + j * 10 + e + 1;
    }

    /** What sender {@code s} sends to every neighbour, element {@code e} (all-gather forms). */
    static int gathered(int s, int e) {
        return s * 1000 + 900 + e;
    }

    /** Elements of the v-form's message from {@code s} to {@code r}: both ends know it. */
    static int vcount(int s, int r) {
        return 1 + (s + r) % 3;
    }

    int[] expectAllGather(int r) {
        int in = sources[r].length;
        int[] out = filled(in * COUNT);
        for (int i = 0; i < in; i++) {
            int[] m = match(r, i);
            for (int e = 0; m != null && e < COUNT; e++) {
                out[i * COUNT + e] = gathered(m[0], e);
            }
        }
        return out;
    }

    /** Blocks of {@code COUNT} placed in reverse slot order, {@code STRIDE} apart. */
    int[] expectAllGatherv(int r) {
        int in = sources[r].length;
        int[] out = filled(in * STRIDE);
        for (int i = 0; i < in; i++) {
            int[] m = match(r, i);
            for (int e = 0; m != null && e < COUNT; e++) {
                out[(in - 1 - i) * STRIDE + e] = gathered(m[0], e);
            }
        }
        return out;
    }

    int[] expectAllToAll(int r) {
        int in = sources[r].length;
        int[] out = filled(in * COUNT);
        for (int i = 0; i < in; i++) {
            int[] m = match(r, i);
            for (int e = 0; m != null && e < COUNT; e++) {
                out[i * COUNT + e] = payload(m[0], m[1], e);
            }
        }
        return out;
    }

    /** Block i of {@code vcount} elements at {@code (in-1-i) * STRIDE}. */
    int[] expectAllToAllv(int r) {
        int in = sources[r].length;
        int[] out = filled(in * STRIDE);
        for (int i = 0; i < in; i++) {
            int[] m = match(r, i);
            for (int e = 0; m != null && e < vcount(m[0], r); e++) {
                out[(in - 1 - i) * STRIDE + e] = payload(m[0], m[1], e);
            }
        }
        return out;
    }

    static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }
}
