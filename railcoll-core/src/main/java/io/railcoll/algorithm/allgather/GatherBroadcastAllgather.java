package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.KnomialTree;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.broadcast.KnomialBroadcast;
import io.railcoll.algorithm.gather.BinomialTreeGather;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

/**
 * Gather then broadcast, the all-gather of Quadrics' {@code elan_gather()} up to 32 KB (paper 000 section 3.1):
 * a {@link BinomialTreeGather} of every block into the root's RECV, then a {@link KnomialBroadcast} of those
 * {@code N b} bytes from the root's RECV to every RECV. Quadrics' version is single-port and runs on the NIC; this
 * one is k-port on both trees. The root is the shape's root (0 for an all-gather).
 *
 * <p>The root is a cut: its first broadcast put waits for its last gather Recv, so the costs add. Steps
 * {@code 2 ceil(log_{k+1} N)}; beta bytes {@code b sum_{t<L} min((k+1)^t, N-(k+1)^t) + L N b}. A rank sends its
 * subtree's blocks up and {@code N b} to each broadcast child. TEMP: the gather's subtree staging. Any N and k.
 */
public final class GatherBroadcastAllgather extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgather.gather-bcast";
    private static final int GATHER_TAG = 0;
    private static final int BROADCAST_TAG = 1;

    public GatherBroadcastAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        KnomialTree tree = new KnomialTree(shape.size(), shape.ports(), shape.root());
        ProgramBuilder p = new ProgramBuilder(rank);
        BinomialTreeGather.appendGather(p, tree, shape.blockBytes(), GATHER_TAG);
        KnomialBroadcast.appendBroadcast(p, tree, shape.size() * shape.blockBytes(), BROADCAST_TAG);
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        KnomialTree tree = new KnomialTree(n, shape.ports(), shape.root());
        LinkTally tally = new LinkTally(shape.placement());
        BinomialTreeGather.tally(tally, tree, n, b);
        KnomialBroadcast.tally(tally, tree, n * b);
        long beta = BinomialTreeGather.betaBytes(n, shape.ports(), b) + tree.depth() * n * b;
        return tally.toCost(2 * tree.depth(), beta,
                "2*ceil(log_{k+1} N)*ts + (sum_{t<L} min((k+1)^t, N-(k+1)^t) + L*N)*b*tau");
    }

    @Override
    public String summary() {
        return "k-nomial gather to the root, then k-nomial broadcast of the N blocks; "
                + "2*ceil(log_{k+1} N)*ts + ((N-1)/k + L*N)*b*tau; any N, k; paper 000 sec. 3.1 (elan_gather)";
    }
}
