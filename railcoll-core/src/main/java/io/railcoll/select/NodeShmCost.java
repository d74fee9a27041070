package io.railcoll.select;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.SimulationTooLargeException;
import io.railcoll.sim.Simulator;

import java.util.Optional;

/**
 * The predicted time of a {@link NodePhased} algorithm ({@code allgather.shm}, {@code barrier.shm},
 * {@code gather.shm}, {@code broadcast.shm}; docs/selection.md "Node steps in shared memory"): the slowest node's step
 * before, the masters' schedule as the simulator predicts it, the slowest node's step after. A node step is one
 * synchronization, charged as the shared-memory link's startup {@code alpha_shm} once per rank that has to run on
 * each core ({@code ceil(ranks / cores)}: with more ranks than cores every rank must be scheduled before the last is
 * through), plus its copies at the model's copy time per byte, spread over the cores but never faster than the
 * longest chain of copies one rank makes. Per node of L ranks:
 * <ul>
 *   <li>all-gather: every rank writes b and reads L b (its own block straight from SEND): L (L+1) b, chain (L+1) b;</li>
 *   <li>gather: every non-root writes b, the root reads L b: (2L-1) b, chain L b;</li>
 *   <li>broadcast: the root writes n, every other rank reads n: L n, chain 2n;</li>
 *   <li>barrier: no copies.</li>
 * </ul>
 * When the cores are the whole job's ({@code model.cpu.scope = host}: an emulated cluster), every node's copies and
 * ranks share them. Stateless.
 */
final class NodeShmCost {
    private NodeShmCost() {
    }

    /** The prediction for {@code a} on {@code shape}. */
    static double predictNs(NodePhased a, Shape shape, CostModel model, long maxOps) {
        return predictNs(a, shape, model, maxOps, new StringBuilder());
    }

    /** The same; {@code how} gets how the masters' schedule was costed (simulated, or estimated when too large). */
    static double predictNs(NodePhased a, Shape shape, CostModel model, long maxOps, StringBuilder how) {
        Optional<Algorithm> between = a.between(shape);
        double masters = between.isEmpty() ? 0 : ModelCost.scheduleNs(between.get(), shape, model, maxOps, how);
        double before = 0;
        double after = 0;
        for (int node = 0; node < shape.placement().nodeCount(); node++) {
            before = Math.max(before, stepNs(a.before(shape, node), node, shape, model));
            after = Math.max(after, stepNs(a.after(shape, node), node, shape, model));
        }
        return before + masters + after;
    }

    static double stepNs(NodeStep step, int node, Shape shape, CostModel model) {
        int l = shape.placement().ranksOnNode(node);
        if (step.kind() == NodeStep.Kind.NONE || l < 2) {
            return 0;
        }
        boolean hostWide = model.cpuScope() == CpuScope.HOST;
        int sharing = hostWide ? shape.size() : l;
        double cores = model.cpuCores() > 0 ? Math.min(sharing, model.cpuCores()) : sharing;
        double sync = model.link(LinkClass.SHARED_MEMORY).alphaNs() * Math.ceil(sharing / cores);
        double b = step.bytes();
        double perNode;
        double chain;
        switch (step.kind()) {
            case ALLGATHER -> {
                perNode = l * (l + 1.0) * b;
                chain = (l + 1.0) * b;
            }
            case GATHER -> {
                perNode = (2.0 * l - 1) * b;
                chain = l * b;
            }
            case BROADCAST -> {
                perNode = l * b;
                chain = 2 * b;
            }
            default -> {
                perNode = 0;
                chain = 0;
            }
        }
        double total = perNode * (hostWide ? shape.placement().nodeCount() : 1);
        return sync + Math.max(chain, total / cores) * model.copyNsPerByte();
    }
}
