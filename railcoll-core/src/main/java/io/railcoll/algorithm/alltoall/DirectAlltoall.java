package io.railcoll.algorithm.alltoall;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.DirectPattern;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Direct all-to-all (paper 000 section 5.1.3): the grouping of the Direct all-gather, each message personalised.
 * In step i rank p puts SEND block {@code q} into RECV slot p of ranks {@code q = p+(i-1)k+1 .. p+ik (mod N)}; every
 * block lands in its final place: {@link DirectPattern#exchange}, personalised.
 *
 * <p>Steps {@code ceil((N-1)/k)}, one block per message: equation (2). Each rank sends and receives
 * {@code (N-1) b}, split by link class by placement. No TEMP. Any N and k. Suited to large blocks.
 */
public final class DirectAlltoall extends AlgorithmBase {
    public static final String ID = "alltoall.direct";
    private static final int TAG = 0;

    public DirectAlltoall() {
        super(ID, Collective.ALLTOALL);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        return DirectPattern.exchange(shape, rank, true, TAG);
    }

    @Override
    public CostTerms cost(Shape shape) {
        return DirectPattern.exchangeCost(shape);
    }

    @Override
    public String summary() {
        return "each rank puts block j to rank j, k ranks per step, wrapping; ceil((N-1)/k)*(ts + b*tau); any N, k; "
                + "paper 000 sec. 5.1.3";
    }
}
