package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.node.PhasedProgramBuilder;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.ResourceTable;
import io.railcoll.schedule.Shape;

import java.util.List;

/**
 * What the node-aware all-gathers share: the SMP-aware ones (paper 000 section 5.2, paper 001 section 6.2) and the
 * multi-connection aware ones (paper 002 section 5) all run in three phases, the first and last over shared memory
 * inside each node, the middle one over the rails between nodes, each named by the algorithm for the
 * {@link ResourceTable}. A subclass writes one rank's ops into a {@link PhasedProgramBuilder}, marking each phase
 * as it enters it (the phases may interleave when the last one overlaps the network); that one pass yields both
 * the rank's program and the phase of each op, so the two cannot disagree. Subclasses are stateless and
 * thread-safe.
 */
abstract class NodeAwareAllgather extends AlgorithmBase implements ResourceTable.Phased {
    /** Phase 1 (shared memory): the blocks come together on each node, at its masters or at every rank. */
    static final int GATHER = 0;
    /** Phase 2 (rails): the exchange between nodes. */
    static final int NETWORK = 1;
    /** Phase 3 (shared memory): what crossed the rails reaches every rank of the node. */
    static final int BROADCAST = 2;

    private final List<String> phaseNames;

    NodeAwareAllgather(String id, String gatherPhase, String networkPhase, String broadcastPhase) {
        super(id, Collective.ALLGATHER);
        phaseNames = List.of(gatherPhase, networkPhase, broadcastPhase);
    }

    @Override
    public final List<String> phaseNames() {
        return phaseNames;
    }

    @Override
    public final RankProgram program(Shape shape, int rank) {
        return build(shape, rank).build();
    }

    @Override
    public final int[] phaseOfOps(Shape shape, int rank) {
        return build(shape, rank).phases();
    }

    private PhasedProgramBuilder build(Shape shape, int rank) {
        PhasedProgramBuilder p = new PhasedProgramBuilder(rank);
        build(shape, rank, p);
        return p;
    }

    /** Adds {@code rank}'s ops for {@code shape} to {@code p}, each in its phase. */
    abstract void build(Shape shape, int rank, PhasedProgramBuilder p);
}
