package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code barrier.shm-dissemination}: the dissemination barrier (Hensgen, Finkel and Manber) in node flags, one node
 * (decision 0201). In round s every rank raises its flag 0 once more and waits until rank {@code r - 2^s} (mod L) has
 * raised it s + 1 times: {@code ceil(log2 L)} rounds of one flag each, so every rank reads only
 * {@code ceil(log2 L)} node-mates' lines, where {@code barrier.shm}'s master reads L - 1 in a row and the others wait
 * for it. Every rank leaves within a round of the others; none leaves first, so after it a root does not find itself
 * ahead of its readers (decision 0187's reason to keep {@code barrier.shm} where ranks outnumber processors: each
 * round needs both ranks of a pair on a processor). Any operator-free shape of at least two ranks on one node; only
 * where the node region is enabled. Stateless.
 */
public final class NodeDisseminationBarrier extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "barrier.shm-dissemination";
    /** Raised once per round by every rank. */
    static final int ARRIVED = 0;

    public NodeDisseminationBarrier() {
        super(ID, Collective.BARRIER);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        ProgramBuilder p = new ProgramBuilder(rank);
        int rounds = Radix.ceilLog(l, 2);
        for (int s = 0, distance = 1; s < rounds; s++, distance <<= 1) {
            p.publish(ARRIVED).awaitFlag(Math.floorMod(rank - distance, l), ARRIVED, s + 1);
        }
        return p.build();
    }

    /** No message: ceil(log2 L) flag crossings, which the simulator prices. */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "ceil(log2 L) node flag crossings");
    }

    @Override
    public String summary() {
        return "dissemination barrier in node flags: ceil(log2 L) rounds, in round s each rank raises its flag and"
                + " awaits rank r - 2^s's; nodes = 1; decision 0201";
    }
}
