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
 * other.
 * <ul>
 *   <li>One node: every rank raises its node flag 0 and waits for every node-mate's (paper 000 sec. 4.2's one flag
 *       per process): one cache-line crossing, no counter, and every rank leaves as soon as it saw the last arrival.
 *       Letting the master out first (node-mates wait for its release flag, as across nodes) measured slower at
 *       1x2, 1x4 and 1x16 (decision 0187).</li>
 *   <li>Several nodes: every rank but the node's master raises flag 0 and waits for the master's flag 1; the master
 *       waits for its node-mates' flag 0, runs a k-port dissemination with the other masters
 *       ({@link MastersDissemination}, {@code ceil(log_{k+1} M)} rounds of zero-byte puts), then raises flag 1. No
 *       rank leaves before every rank entered: a rank leaves after its master finished the dissemination, which
 *       needs every master, which each started only after its whole node had entered.</li>
 * </ul>
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
        if (placement.nodeCount() == 1) {
            if (mates.length > 1) {
                p.publish(ENTERED);
                for (int q : mates) {
                    if (q != rank) {
                        p.awaitFlag(q, ENTERED, 1);
                    }
                }
            }
            return p.build();
        }
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
        return "SMP-aware barrier in node steps: one node, every rank raises a flag and reads its node-mates' (one"
                + " cache-line crossing); several, node masters gather flags, run a k-port dissemination"
                + " (ceil(log_{k+1} M) rounds) and release their node with a flag; any placement; decision 0101";
    }
}
