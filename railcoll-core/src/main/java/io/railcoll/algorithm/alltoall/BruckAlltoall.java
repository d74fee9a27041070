package io.railcoll.algorithm.alltoall;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.BlockLocations;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * k-port Bruck all-to-all (paper 000 section 5.1.3), any N, in radix k+1.
 *
 * <p>Rank p numbers its blocks by slot: slot i starts as its block for rank {@code p-i}, which must travel i ranks
 * down. Phase 1, the paper's rotation, is only bookkeeping here (slot i is read where it sits in SEND). Phase 2:
 * at level j, for each digit value d = 1..k, p puts the slots whose base-(k+1) digit j is d to rank
 * {@code p - d(k+1)^j} and receives the same slots from {@code p + d(k+1)^j}; a slot moves once per non-zero
 * digit, i ranks in all, so afterwards slot i holds the block from {@code p+i}. Phase 3, the inverse rotation,
 * copies slot i to RECV block {@code p+i}. The paper states this with "bit j" and shifts {@code k^j}; for k = 1 that
 * is the same, for k > 1 digits in radix k+1 are what gives its {@code ceil(log_{k+1} N)} steps.
 *
 * <pre>
 *   N = 3, k = 2, rank p: slot -> block (src>dst)
 *   start      0: p>p   1: p>p-1   2: p>p-2
 *   level 0    slot 1 to p-1, slot 2 to p-2; from p+1 its slot 1 (p+1>p), from p+2 its slot 2 (p+2>p)
 *   shift      slot i -> RECV block p+i
 * </pre>
 *
 * <p>Steps {@code L = ceil(log_{k+1} N)}; a level-j message holds {@code n_j,d} blocks, the slots below N with
 * digit j = d; beta bytes {@code b sum_j max_d n_j,d}, which is {@code L N/(k+1) b} for N a power of k+1: the same
 * as equation (5). Each rank sends and receives {@code sum_{j,d} n_j,d b}.
 *
 * <p>Buffers: slots with one digit value are strided, so each message is packed into fresh TEMP and lands in
 * another; the top level's slots are final and contiguous, and land straight in RECV unless they wrap past block
 * N-1. TEMP is {@code O(N log_{k+1} N) b}.
 */
public final class BruckAlltoall extends AlgorithmBase {
    public static final String ID = "alltoall.bruck";

    public BruckAlltoall() {
        super(ID, Collective.ALLTOALL);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        int radix = shape.ports() + 1;
        int levels = Radix.ceilLog(n, radix);
        ProgramBuilder p = new ProgramBuilder(rank);
        BlockLocations slots = new BlockLocations(b);
        for (int i = 0; i < n; i++) {
            slots.place(i, Buffer.SEND, Math.floorMod(rank - i, n) * b);
        }
        long unit = 1;
        for (int j = 0; j < levels; j++, unit *= radix) {
            for (int d = 1; d < radix; d++) {
                List<Long> message = slotsWithDigit(n, radix, unit, d);
                if (!message.isEmpty()) {
                    slots.put(p, Math.floorMod(rank - d * unit, n), message, j);
                }
            }
            for (int d = 1; d < radix; d++) {
                List<Long> message = slotsWithDigit(n, radix, unit, d);
                if (message.isEmpty()) {
                    continue;
                }
                int from = (int) ((rank + d * unit) % n);
                // On the top level these slots are final and consecutive: slot i goes to RECV block p+i.
                if (j == levels - 1 && from + message.size() <= n) {
                    slots.receive(p, from, j, message, Buffer.RECV, from * b);
                } else {
                    slots.receiveIntoTemp(p, from, j, message);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            slots.copyTo(p, i, Buffer.RECV, ((rank + i) % n) * b);
        }
        return p.build();
    }

    /** Slots {@code i < n} whose digit at {@code unit = (k+1)^j} is {@code d}, ascending. */
    private static List<Long> slotsWithDigit(int n, int radix, long unit, int d) {
        List<Long> slots = new ArrayList<>();
        for (long start = d * unit; start < n; start += unit * radix) {
            for (long i = start; i < Math.min(start + unit, n); i++) {
                slots.add(i);
            }
        }
        return slots;
    }

    /** {@code n_j,d}: how many slots below n have digit d at {@code unit = (k+1)^j}. */
    static long slotCount(int n, int radix, long unit, int d) {
        long cycle = unit * radix;
        long rest = n % cycle;
        return (n / cycle) * unit + Math.clamp(rest - d * unit, 0, unit);
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        int radix = shape.ports() + 1;
        int levels = Radix.ceilLog(n, radix);
        LinkTally tally = new LinkTally(shape.placement());
        long betaBlocks = 0;
        long unit = 1;
        for (int j = 0; j < levels; j++, unit *= radix) {
            betaBlocks += slotCount(n, radix, unit, 1);
            for (int d = 1; d < radix; d++) {
                long count = slotCount(n, radix, unit, d);
                for (int r = 0; r < n && count > 0; r++) {
                    tally.message(r, Math.floorMod(r - d * unit, n), count * b);
                }
            }
        }
        return tally.toCost(levels, betaBlocks * b,
                "ceil(log_{k+1} N)*ts + sum_j max_d n_{j,d}*b*tau; N=(k+1)^L: L*ts + N/(k+1)*L*b*tau "
                        + "[paper 000 eq. (5)]");
    }

    @Override
    public String summary() {
        return "k-port Bruck in radix k+1, packed levels, final slots straight into RECV; "
                + "ceil(log_{k+1} N)*ts + N/(k+1)*log_{k+1} N*b*tau for N=(k+1)^L; any N, k; paper 000 sec. 5.1.3";
    }
}
