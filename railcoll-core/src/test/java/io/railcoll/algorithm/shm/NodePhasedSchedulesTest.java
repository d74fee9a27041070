package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodePhased;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.ScheduleChecker;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every {@link NodePhased} algorithm of the catalog, composed as it runs (each node's step before, the masters'
 * schedule, each node's step after) and checked by the {@link ScheduleChecker} like any schedule: final bytes on
 * every rank, matching, no hazard, no deadlock. The node steps, which shared memory carries out, are written here as
 * the messages with the same effect (every contribution straight to where it lands), so what is checked is that the
 * steps and the masters' schedule together make the collective, for every placement they accept, k = 1..3, block
 * sizes 0, 1, 3, 1000 and roots first, middle and last.
 */
class NodePhasedSchedulesTest {
    private static final int BEFORE_TAGS = 1 << 20;
    private static final int AFTER_TAGS = 2 << 20;

    private static List<Placement> placements() {
        List<Placement> list = new ArrayList<>(List.of(Placement.uniform(1, 1), Placement.singleNode(2),
                Placement.singleNode(8), Placement.uniform(2, 3), Placement.ofCounts(3, 4, 2), Placement.ofCounts(3, 4, 1),
                Placement.ofCounts(1, 5), Placement.uniform(4, 4), Placement.uniform(5, 2), Placement.uniform(8, 2),
                Placement.uniform(7, 1), Placement.ofNodeIds(0, 1, 0, 1, 2, 0)));
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            int nodes = 1 + random.nextInt(9);
            int[] counts = new int[nodes];
            for (int n = 0; n < nodes; n++) {
                counts[n] = 1 + random.nextInt(5);
            }
            list.add(Placement.ofCounts(counts));
        }
        return list;
    }

    @Test
    void everyComposedNodePhasedAlgorithmIsACorrectSchedule() {
        int checked = 0;
        for (Algorithm a : AlgorithmCatalog.standard().all()) {
            if (!(a instanceof NodePhased phased)) {
                continue;
            }
            for (Placement p : placements()) {
                for (int k = 1; k <= 3; k++) {
                    for (long b : new long[] {0, 1, 3, 1000}) {
                        for (int root : roots(a.collective(), p.size())) {
                            Shape shape = new Shape(a.collective(), p, k, b, root);
                            if (a.unsupportedReason(shape).isPresent()) {
                                continue;
                            }
                            ScheduleChecker.Report report = ScheduleChecker.check(a.id() + " composed", shape,
                                    rank -> composed(phased, shape, rank), null);
                            if (!report.ok()) {
                                fail(report.describe());
                            }
                            checked++;
                        }
                    }
                }
            }
        }
        // gather.shm and allgather.shm since barrier.shm and broadcast.shm are node steps (decision 0187): 360 shapes
        assertTrue(checked >= 360, "only " + checked + " shapes checked");
    }

    private static List<Integer> roots(Collective c, int n) {
        if (c != Collective.GATHER && c != Collective.BROADCAST) {
            return List.of(0);
        }
        return List.of(0, n / 2, n - 1).stream().distinct().toList();
    }

    /** Rank {@code rank}'s program: its node's step before as messages, the masters' schedule, the step after. */
    private static RankProgram composed(NodePhased a, Shape shape, int rank) {
        int node = shape.placement().nodeOf(rank);
        List<Op> ops = new ArrayList<>(stepOps(a.before(shape, node), shape, rank, BEFORE_TAGS));
        long temp = 0;
        if (a.between(shape).isPresent()) {
            RankProgram masters = a.between(shape).get().program(shape, rank);
            ops.addAll(masters.ops());
            temp = masters.tempBytes();
        }
        ops.addAll(stepOps(a.after(shape, node), shape, rank, AFTER_TAGS));
        return new RankProgram(rank, ops, temp);
    }

    /** A node step as the messages that have its effect: each contribution straight to where it lands. */
    private static List<Op> stepOps(NodeStep s, Shape shape, int rank, int tag) {
        Placement p = shape.placement();
        int node = p.nodeOf(rank);
        int me = p.localRankOf(rank);
        int[] locals = p.ranksOf(node);
        List<Op> ops = new ArrayList<>();
        switch (s.kind()) {
            case NONE -> { }
            case BARRIER -> {
                for (int q : locals) {
                    if (q != rank) {
                        ops.add(new Op.Put(q, Buffer.SEND, 0, 0, tag));
                    }
                }
                for (int q : locals) {
                    if (q != rank) {
                        ops.add(new Op.Recv(q, tag, Buffer.RECV, 0, 0));
                    }
                }
            }
            case GATHER -> {
                int root = locals[s.rootLocal()];
                if (rank != root) {
                    ops.add(new Op.Put(root, s.src(), s.srcOffset(), s.bytes(), tag));
                } else {
                    ops.add(new Op.Copy(s.src(), s.srcOffset(), s.dst(), s.dstOffset() + me * s.bytes(), s.bytes()));
                    for (int l = 0; l < locals.length; l++) {
                        if (l != me) {
                            ops.add(new Op.Recv(locals[l], tag, s.dst(), s.dstOffset() + l * s.bytes(), s.bytes()));
                        }
                    }
                }
            }
            case BROADCAST -> {
                int root = locals[s.rootLocal()];
                if (rank == root) {
                    for (int q : locals) {
                        if (q != rank) {
                            ops.add(new Op.Put(q, s.src(), s.srcOffset(), s.bytes(), tag));
                        }
                    }
                    if (s.src() != s.dst() || s.srcOffset() != s.dstOffset()) {
                        ops.add(new Op.Copy(s.src(), s.srcOffset(), s.dst(), s.dstOffset(), s.bytes()));
                    }
                } else {
                    ops.add(new Op.Recv(root, tag, s.dst(), s.dstOffset(), s.bytes()));
                }
            }
            case ALLGATHER -> {
                for (int q : locals) {
                    if (q != rank) {
                        ops.add(new Op.Put(q, s.src(), s.srcOffset(), s.bytes(), tag));
                    }
                }
                ops.add(new Op.Copy(s.src(), s.srcOffset(), s.dst(), s.dstOffset() + me * s.bytes(), s.bytes()));
                for (int l = 0; l < locals.length; l++) {
                    if (l != me) {
                        ops.add(new Op.Recv(locals[l], tag, s.dst(), s.dstOffset() + l * s.bytes(), s.bytes()));
                    }
                }
            }
        }
        return ops;
    }
}
