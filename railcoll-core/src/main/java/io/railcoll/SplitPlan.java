package io.railcoll;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What a split gives this rank, computed alike on every rank of the parent from everyone's (color, key): the
 * members of its color in the order of (key, parent rank), MPI's rule; their placement (nodes numbered in the order
 * their first member appears); and the context the new communicator's frames carry. Pure: no I/O.
 *
 * @param parentRanks the members' ranks in the parent, in the new communicator's order
 * @param rank        this rank's rank in the new communicator
 * @param placement   the new communicator's placement
 * @param context     its communication context (decision 0070)
 */
record SplitPlan(int[] parentRanks, int rank, Placement placement, long context) {

    /**
     * The plan of parent rank {@code me}, or null when its color is negative (it gets no communicator).
     *
     * @param colors        every parent rank's color
     * @param keys          every parent rank's key
     * @param parentPlacement the parent's placement (which node each parent rank is on)
     * @param parentContext the parent's context
     * @param creation      how many communicators the parent had created before this one (the same on every rank)
     */
    static SplitPlan of(int[] colors, int[] keys, int me, Placement parentPlacement, long parentContext, long creation) {
        int color = colors[me];
        if (color < 0) {
            return null;
        }
        List<Integer> members = new ArrayList<>();
        for (int r = 0; r < colors.length; r++) {
            if (colors[r] == color) {
                members.add(r);
            }
        }
        members.sort(Comparator.<Integer>comparingInt(r -> keys[r]).thenComparingInt(r -> r));
        int[] parentRanks = members.stream().mapToInt(Integer::intValue).toArray();
        return of(parentRanks, me, parentPlacement, context(parentContext, creation, color));
    }

    /**
     * The plan of parent rank {@code me} in a communicator of {@code parentRanks} (in that order, {@code me} among
     * them) whose context is already known: a {@code createGroup}'s.
     */
    static SplitPlan of(int[] parentRanks, int me, Placement parentPlacement, long context) {
        int[] nodeIdOfParentNode = new int[parentPlacement.nodeCount()];
        Arrays.fill(nodeIdOfParentNode, -1);
        int[] nodeOf = new int[parentRanks.length];
        int nodes = 0;
        int rank = -1;
        for (int i = 0; i < parentRanks.length; i++) {
            int parentNode = parentPlacement.nodeOf(parentRanks[i]);
            if (nodeIdOfParentNode[parentNode] < 0) {
                nodeIdOfParentNode[parentNode] = nodes++;
            }
            nodeOf[i] = nodeIdOfParentNode[parentNode];
            if (parentRanks[i] == me) {
                rank = i;
            }
        }
        return new SplitPlan(parentRanks.clone(), rank, Placement.ofNodeIds(nodeOf), context);
    }

    /**
     * The context of the {@code creation}-th communicator made from the one of {@code parentContext}, for
     * {@code color}: a 64-bit mix of the three, never 0 (the world's). Every member computes the same value without
     * a message; two communicators open on one rank that collide (odds about 2^-64 per pair) are refused when the
     * second is registered.
     */
    static long context(long parentContext, long creation, int color) {
        long h = mix(parentContext ^ 0x9E3779B97F4A7C15L);
        h = mix(h ^ creation * 0xBF58476D1CE4E5B9L);
        h = mix(h ^ (color & 0xffffffffL) * 0x94D049BB133111EBL);
        return h == 0 ? 1 : h;
    }

    /**
     * The context of a communicator made by {@code createGroup} among its members only (decision 0125): a mix of the
     * parent's context, a hash of the members' parent ranks in order, the tag, and how many communicators of those
     * members and that tag the parent made before (counted on each member alone: the non-members never hear of it).
     * Salted apart from {@link #context(long, long, int)}'s inputs; a collision with a context open on this rank is
     * refused when registered, as every context's.
     */
    static long groupContext(long parentContext, int[] parentRanks, int tag, long sequence) {
        long h = mix(parentContext ^ 0xC2B2AE3D27D4EB4FL);
        for (int r : parentRanks) {
            h = mix(h ^ (r & 0xffffffffL) * 0x9E3779B97F4A7C15L);
        }
        h = mix(h ^ ((long) parentRanks.length << 32 | (tag & 0xffffffffL)));
        h = mix(h ^ sequence * 0xBF58476D1CE4E5B9L);
        return h == 0 ? 1 : h;
    }

    /**
     * The context of the point-to-point messages of the communicator of {@code context}: derived as a creation
     * numbered -1, which no split uses, so it differs from every communicator's (decision 0080).
     */
    static long pointToPointContext(long context) {
        return context(context, -1, -1);
    }

    /** SplitMix64's finaliser: every input bit moves every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
