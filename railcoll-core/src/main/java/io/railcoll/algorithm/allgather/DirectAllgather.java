package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.DirectPattern;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Direct all-gather (paper 000 section 5.1.2, paper 001 section 6.1.1): the k-port sequential tree. In step i rank
 * p puts its SEND block into the RECV slot p of ranks {@code p+(i-1)k+1 .. p+ik (mod N)}; every block lands in its
 * final place, so there is no TEMP and no copy but the rank's own. The exchange and its cost are
 * {@link DirectPattern}'s, shared with the Direct all-to-all.
 *
 * <p>Steps {@code ceil((N-1)/k)}, one block per message: equation (2), {@code T = ceil((N-1)/k) (ts + b tau)}.
 * Each rank sends and receives {@code (N-1) b}, split by link class by placement. Any N and k. Suited to large
 * blocks.
 */
public final class DirectAllgather extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgather.direct";
    private static final int TAG = 0;

    public DirectAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        return DirectPattern.exchange(shape, rank, false, TAG);
    }

    @Override
    public CostTerms cost(Shape shape) {
        return DirectPattern.exchangeCost(shape);
    }

    @Override
    public String summary() {
        return "each rank puts its block to k ranks per step, wrapping; ceil((N-1)/k)*(ts + b*tau); any N, k; "
                + "paper 000 sec. 5.1.2, paper 001 sec. 6.1.1";
    }
}
