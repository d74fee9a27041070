package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.schedule.LinkTally;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

/**
 * {@code barrier.shm}: an SMP-aware barrier in node steps (decisions 0101, 0187), a schedule the engine runs like any
 * other. Every rank but its node's master raises its node flag 0 and waits for the master's flag 1; the master waits for
 * its node-mates' flag 0 (paper 000 sec. 4.2's one flag per process), runs a k-port dissemination with the other
 * masters when there are several nodes ({@link MastersDissemination}, {@code ceil(log_{k+1} M)} rounds of zero-byte
 * puts; none on one node), then raises flag 1. No rank leaves before every rank entered: a rank leaves after its
 * master finished the dissemination, which needs every master, which each started only after its whole node had
 * entered. The master leaves first, also on one node, as the node collectives' counter barrier let local rank 0 out
 * first: a broadcast's root or a node master goes on while its node-mates are still being woken; "every rank raises
 * and awaits every other's" was faster as a barrier alone but 2-9x slower for the broadcast timed after it
 * (decision 0187).
 * A node-mate that waits sleeps on its doorbell, which a raise rings, so ranks that outnumber the processors do
 * not spin (the engine's rule). Any placement (a rank alone on its node runs only the masters' part, which has no
 * node step); only where the node region is enabled. Stateless.
 */
public final class NodeFlagBarrier extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "barrier.shm";
    /** Raised by every rank when it enters. */
    static final int ENTERED = 0;
    /** Raised by a master once every rank of the job entered. */
    static final int RELEASED = 1;

    private final MastersDissemination masters = new MastersDissemination();

    public NodeFlagBarrier() {
        super(ID, Collective.BARRIER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int[] mates = placement.ranksOf(placement.nodeOf(rank));
        ProgramBuilder p = new ProgramBuilder(rank);
        int master = placement.masterOf(placement.nodeOf(rank));
        if (rank != master) {
            return p.publish(ENTERED).awaitFlag(master, RELEASED, 1).build();
        }
        for (int q : mates) {
            if (q != rank) {
                p.awaitFlag(q, ENTERED, 1);
            }
        }
        p.append(masters.program(shape, rank));
        if (mates.length > 1) {
            p.publish(RELEASED);
        }
        return p.build();
    }

    /** The masters' dissemination: no message moves within a node (node steps are priced by the simulator). */
    @Override
    public CostTerms cost(Shape shape) {
        int rounds = Radix.ceilLog(shape.placement().nodeCount(), shape.ports() + 1);
        return new LinkTally(shape.placement()).toCost(rounds, 0, "node flags + ceil(log_{k+1} M) * ts");
    }

    @Override
    public String summary() {
        return "SMP-aware barrier in node steps: every rank raises a flag its node's master awaits; the masters run a"
                + " k-port dissemination (ceil(log_{k+1} M) rounds, none on one node) and release their node with a"
                + " flag, leaving first; any placement; decisions 0101, 0187";
    }
}
