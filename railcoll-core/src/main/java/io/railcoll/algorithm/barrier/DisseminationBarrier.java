package io.railcoll.algorithm.barrier;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * k-port dissemination barrier (Hensgen, Finkel and Manber's dissemination, in radix k+1 as the k-port
 * algorithms of paper 000): in round s rank p puts a zero-byte signal to {@code p + j(k+1)^s} and waits for
 * {@code p - j(k+1)^s}, j = 1..k (distances of N or more are skipped). After round s, p has heard, through some
 * chain of signals, from the {@code (k+1)^(s+1)} ranks below it, so after {@code ceil(log_{k+1} N)} rounds from all.
 *
 * <p>Steps {@code ceil(log_{k+1} N)}, {@code T = ceil(log_{k+1} N) ts}; no bytes move (beta 0). Any N and k.
 */
public final class DisseminationBarrier extends AlgorithmBase {
    public static final String ID = "barrier.dissemination";

    public DisseminationBarrier() {
        super(ID, Collective.BARRIER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        int radix = shape.ports() + 1;
        int rounds = Radix.ceilLog(n, radix);
        ProgramBuilder p = new ProgramBuilder(rank);
        long unit = 1;
        for (int s = 0; s < rounds; s++, unit *= radix) {
            for (long distance = unit; distance < n && distance < radix * unit; distance += unit) {
                p.put((int) ((rank + distance) % n), Buffer.SEND, 0, 0, s);
            }
            for (long distance = unit; distance < n && distance < radix * unit; distance += unit) {
                p.recv(Math.floorMod(rank - distance, n), s, Buffer.RECV, 0, 0);
            }
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        int radix = shape.ports() + 1;
        int rounds = Radix.ceilLog(n, radix);
        LinkTally tally = new LinkTally(shape.placement());
        return tally.toCost(rounds, 0, "ceil(log_{k+1} N) * ts");
    }

    @Override
    public String summary() {
        return "dissemination with k zero-byte signals per round; ceil(log_{k+1} N)*ts; any N, k";
    }
}
