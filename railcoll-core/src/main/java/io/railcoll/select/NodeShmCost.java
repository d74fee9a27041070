package io.railcoll.select;

import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.LinkClass;

/**
 * The predicted time of a collective the node's shared memory carries out itself ({@code allgather.shm},
 * {@code gather.shm}, {@code broadcast.shm}, {@code barrier.shm}; docs/selection.md "Shared-memory collectives"):
 * one synchronization, charged as the shared-memory link's startup {@code alpha_shm} once per rank that must run on
 * each core ({@code ceil(N / cores)}: on a node with more ranks than cores every rank has to be scheduled before
 * the last one is through), plus the copies, charged at the model's copy time per byte and spread over the cores:
 * <ul>
 *   <li>all-gather: every rank writes b and reads N b (its own block straight from SEND): N (N+1) b;</li>
 *   <li>gather: every non-root writes b, the root reads N b: (2N-1) b, at least the root's N b in a row;</li>
 *   <li>broadcast: the root writes n, every other rank reads n: N n, at least 2n in a row;</li>
 *   <li>barrier: no copies.</li>
 * </ul>
 * Stateless.
 */
final class NodeShmCost {
    private NodeShmCost() {
    }

    static double predictNs(Shape shape, CostModel model) {
        int n = shape.size();
        double cores = model.cpuCores() > 0 ? Math.min(n, model.cpuCores()) : n;
        double sync = model.link(LinkClass.SHARED_MEMORY).alphaNs() * Math.ceil(n / cores);
        double b = shape.blockBytes();
        double copied = switch (shape.collective()) {
            case ALLGATHER -> n * (n + 1.0) * b / cores;
            case GATHER -> Math.max(n * b, (2.0 * n - 1) * b / cores);
            case BROADCAST -> Math.max(2 * b, n * b / cores);
            case BARRIER -> 0;
            case ALLTOALL -> throw new IllegalArgumentException("no shared-memory all-to-all to cost");
        };
        return sync + copied * model.copyNsPerByte();
    }
}
