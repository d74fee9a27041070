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
 * The masters' part of {@code barrier.shm}: the k-port dissemination barrier among the M node masters (each node's
 * lowest rank), master of node n signalling the masters of nodes {@code n + j(k+1)^s} in round s, j = 1..k; every
 * other rank's program is empty. Not a barrier by itself (it waits for masters only): the node barriers around it
 * make it one. Not in the catalog. Stateless.
 */
final class MastersDissemination implements Algorithm {
    static final String ID = "barrier.shm:masters";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Collective collective() {
        return Collective.BARRIER;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int node = placement.nodeOf(rank);
        ProgramBuilder p = new ProgramBuilder(rank);
        if (placement.masterOf(node) != rank) {
            return p.build();
        }
        int m = placement.nodeCount();
        int radix = shape.ports() + 1;
        int rounds = Radix.ceilLog(m, radix);
        long unit = 1;
        for (int s = 0; s < rounds; s++, unit *= radix) {
            for (long d = unit; d < m && d < radix * unit; d += unit) {
                p.put(placement.masterOf((int) ((node + d) % m)), Buffer.SEND, 0, 0, s);
            }
            for (long d = unit; d < m && d < radix * unit; d += unit) {
                p.recv(placement.masterOf((int) Math.floorMod(node - d, m)), s, Buffer.RECV, 0, 0);
            }
        }
        return p.build();
    }

    @Override
    public String summary() {
        return "k-port dissemination among node masters; the others idle";
    }
}
