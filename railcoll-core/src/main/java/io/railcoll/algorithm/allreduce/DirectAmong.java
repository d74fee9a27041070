package io.railcoll.algorithm.allreduce;

import io.railcoll.algorithm.EvenSplit;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;

/**
 * All-reduce among a few members in two steps, each member talking to all others at once: a direct reduce-scatter
 * (member i puts part j of its operand to member j, for every j, and combines the M partials of its own part), then a
 * direct all-gather (member i puts its finished part to every other member). Each member sends and receives
 * {@code 2 (M-1)/M b}, as Rabenseifner's halving and doubling do, but in 2 steps instead of {@code 2 log2 M}: every
 * step is a wait for the slowest message of the step, and on rails where a step's wake-ups, token-bucket refills and
 * start-ups cost milliseconds, the steps are what a large all-reduce among node leaders pays beyond the wire
 * (decision 0176). Meant for the few node leaders of {@link SmpAllreduce}, not for hundreds of members: each step
 * has M-1 messages in flight per member.
 *
 * <p>Part j is {@code elements/M} elements, the first {@code elements%M} one more. Member i combines its part as
 * {@code P0 op (P1 op (... op PM-1))} in member order, once, and the others only copy it: every member gets the same
 * bits; the order is member order, so with members in rank order any operator runs it, and with node-major leaders
 * (SMP) only commutative ones. Empty parts (fewer elements than members) send nothing.
 */
final class DirectAmong {
    private DirectAmong() {
    }

    /** Tags {@link #append} uses from its first tag. */
    static int tags(int members) {
        return members == 1 ? 0 : 2;
    }

    /**
     * Appends the all-reduce among {@code members} for the member at {@code index}: its operand of {@code elements}
     * elements of {@code e} bytes at {@code src[srcOffset..]}, which it never writes; the result at
     * {@code resultOffset} of RECV. Tags {@code firstTag} (reduce-scatter) and {@code firstTag + 1} (all-gather).
     */
    static void append(ProgramBuilder p, int[] members, int index, Buffer src, long srcOffset, long resultOffset,
                       long elements, long e, int firstTag) {
        int m = members.length;
        if (m == 1) {
            p.copy(src, srcOffset, Buffer.RECV, resultOffset, elements * e);
            return;
        }
        // Reduce-scatter: part j to member j, starting after me so that the members' first puts go to different peers.
        for (int k = 1; k < m; k++) {
            int j = (index + k) % m;
            if (partLength(elements, m, j) > 0) {
                p.put(members[j], src, srcOffset + partLo(elements, m, j) * e, partLength(elements, m, j) * e, firstTag);
            }
        }
        long mine = partLength(elements, m, index) * e;
        long at = resultOffset + partLo(elements, m, index) * e;
        long myOperand = srcOffset + partLo(elements, m, index) * e;
        if (mine > 0) {
            // The last member's partial lands in the result range itself; the others' in TEMP.
            long[] received = new long[m];
            // Received in the order they are sent to me: member j's put to me is its ((me - j) mod M)-th.
            for (int k = 1; k < m; k++) {
                int j = (index - k + m) % m;
                received[j] = j == m - 1 ? at : p.allocateTemp(mine);
                p.recv(members[j], firstTag, j == m - 1 ? Buffer.RECV : Buffer.TEMP, received[j], mine);
            }
            if (index == m - 1) {
                p.copy(src, myOperand, Buffer.RECV, at, mine);
            }
            for (int j = m - 2; j >= 0; j--) {
                if (j == index) {
                    p.reduce(src, myOperand, Buffer.RECV, at, mine);
                } else {
                    p.reduce(Buffer.TEMP, received[j], Buffer.RECV, at, mine);
                }
            }
            // All-gather: my finished part to every other member.
            for (int k = 1; k < m; k++) {
                p.put(members[(index + k) % m], Buffer.RECV, at, mine, firstTag + 1);
            }
        }
        for (int k = 1; k < m; k++) {
            int j = (index - k + m) % m;
            long len = partLength(elements, m, j) * e;
            if (len > 0) {
                p.recv(members[j], firstTag + 1, Buffer.RECV, resultOffset + partLo(elements, m, j) * e, len);
            }
        }
    }

    /** First element of part {@code j} of {@code m}. */
    static long partLo(long elements, int m, int j) {
        return EvenSplit.first(elements, m, j);
    }

    /** Elements of part {@code j} of {@code m}. */
    static long partLength(long elements, int m, int j) {
        return EvenSplit.count(elements, m, j);
    }
}
