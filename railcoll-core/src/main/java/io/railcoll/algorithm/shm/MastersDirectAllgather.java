package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

/**
 * The masters' part of {@code allgather.smp-direct-shm}: k-port Direct among the M node masters on whole nodes.
 * Master n already holds its node's L_n blocks in RECV, in their final place (its ranks are consecutive); in step
 * s = 0..ceil((M-1)/k)-1 it puts them, as one message, to the masters of nodes {@code n+sk+1 .. n+(s+1)k} (mod M)
 * straight into the same place of their RECV, and receives the step's k node messages before the next step, so k
 * connections are busy at a time. Every other rank's program is empty. Not an all-gather by itself (only masters
 * end complete): the node gather before it and the node broadcast after it make it one. Not in the catalog.
 * Stateless.
 */
final class MastersDirectAllgather implements Algorithm {
    static final String ID = "allgather.smp-direct-shm:masters";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Collective collective() {
        return Collective.ALLGATHER;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int node = placement.nodeOf(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (placement.masterOf(node) != rank) {
            return p.build();
        }
        long b = shape.blockBytes();
        int m = placement.nodeCount();
        int k = shape.ports();
        long steps = Radix.ceilDiv(m - 1, k);
        for (long s = 0; s < steps; s++) {
            for (long d = s * k + 1; d <= Math.min((s + 1) * k, m - 1); d++) {
                p.put(placement.masterOf((int) ((node + d) % m)), Buffer.RECV, placement.masterOf(node) * b,
                        placement.ranksOnNode(node) * b, 0);
            }
            for (long d = s * k + 1; d <= Math.min((s + 1) * k, m - 1); d++) {
                int from = (int) Math.floorMod(node - d, m);
                p.recv(placement.masterOf(from), 0, Buffer.RECV, placement.masterOf(from) * b,
                        placement.ranksOnNode(from) * b);
            }
        }
        return p.build();
    }

    @Override
    public String summary() {
        return "k-port Direct among node masters on whole nodes; the others idle";
    }
}
