package io.railcoll.sim;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.TreeSet;

/**
 * A closed-form estimate for shapes too large to simulate event by event (1024 nodes x 64 ranks is 65536 programs,
 * and a direct or ring all-gather holds 65535 puts in each): the k-port Hockney model of {@link CostModel}'s link
 * classes, applied to the programs of a few sample ranks instead of all of them, with the node's shared resources
 * as bounds. It costs a dozen programs, not N, whatever the schedule.
 *
 * <p>For each sampled rank, its program is cut into phases at every receive that follows a put (a later put may
 * depend on what arrived); a phase's p puts of one link class take {@code ceil(p/k) (alpha + avg bytes * beta)} on
 * the rank's k ports, and its copies their copy time; the rank's receives take the same on its k receive ports. The
 * rank's time is the larger of the sum of its phases and its receiving. Then per node: its ranks' rail bytes over its
 * k rails, and its processor work over its cores, bound the time from below. The estimate is the largest of these
 * over the sampled ranks and nodes. Samples: local ranks first, middle and last on nodes first, second, middle and
 * last, so a root node or a node master is among them; a node's bytes and work are its sampled ranks' mean times its
 * rank count.
 *
 * <p>What it leaves out: waiting on other ranks beyond one's own receives (a pipeline's fill), contention among
 * messages of different phases, token buckets. It is an estimate of the same model, used only where simulation
 * would exceed its budget (so never for a shape the simulator runs), and says so in its label. Stateless.
 */
public final class AnalyticEstimate {
    private AnalyticEstimate() {
    }

    /** The estimated time of {@code algorithm} on {@code shape} in ns; the caller has checked it can run the shape. */
    public static double predictNs(Algorithm algorithm, Shape shape, CostModel model) {
        Placement p = shape.placement();
        int k = Math.max(1, shape.ports());
        LinkCost rail = model.link(LinkClass.RAIL);
        LinkCost shm = model.link(LinkClass.SHARED_MEMORY);
        double worst = 0;
        for (int node : samples(p.nodeCount())) {
            int[] ranks = p.ranksOf(node);
            TreeSet<Integer> locals = new TreeSet<>(java.util.List.of(0, ranks.length / 2, ranks.length - 1));
            double railBytes = 0;
            double cpuNs = 0;
            for (int local : locals) {
                RankProgram program = algorithm.program(shape, ranks[local]);
                RankTime t = rankTime(program, ranks[local], p, k, rail, shm, model);
                // The rank's one thread does its share of every message and its copies, one after the other.
                worst = Math.max(worst, Math.max(t.ns, t.cpuNs));
                railBytes += Math.max(t.railSentBytes, t.railReceivedBytes);
                cpuNs += t.cpuNs;
            }
            double scale = (double) ranks.length / locals.size();
            // The node's rails carry its ranks' rail bytes, k at a time.
            worst = Math.max(worst, railBytes * scale * (1 - rail.cpuFraction()) * rail.nsPerByte() / k);
            double cores = model.cpuCores() > 0 && model.cpuScope() == CpuScope.NODE ? model.cpuCores()
                    : model.cpuCores() > 0 ? model.cpuCores() / p.nodeCount() : ranks.length;
            worst = Math.max(worst, cpuNs * scale / Math.max(cores, 1e-9));
        }
        return worst;
    }

    private record RankTime(double ns, double railSentBytes, double railReceivedBytes, double cpuNs) {
    }

    private static RankTime rankTime(RankProgram program, int rank, Placement p, int k, LinkCost rail, LinkCost shm,
                                     CostModel model) {
        double total = 0;
        double cpu = 0;
        long railSent = 0;
        long railReceived = 0;
        // The current phase's puts per link class: count and bytes.
        long[] puts = new long[2];
        long[] putBytes = new long[2];
        long[] recvs = new long[2];
        long[] recvBytes = new long[2];
        for (Op op : program.ops()) {
            switch (op) {
                case Op.Put x -> {
                    int c = p.sameNode(rank, x.peer()) ? 0 : 1;
                    puts[c]++;
                    putBytes[c] += x.length();
                    if (c == 1) {
                        railSent += x.length();
                    }
                    LinkCost l = c == 0 ? shm : rail;
                    cpu += l.cpuFraction() / 2 * l.messageNs(x.length());
                }
                case Op.Recv x -> {
                    if (puts[0] + puts[1] > 0) {
                        total += phase(puts, putBytes, k, shm, rail);
                    }
                    int c = p.sameNode(rank, x.peer()) ? 0 : 1;
                    recvs[c]++;
                    recvBytes[c] += x.length();
                    if (c == 1) {
                        railReceived += x.length();
                    }
                    LinkCost l = c == 0 ? shm : rail;
                    cpu += l.cpuFraction() / 2 * l.messageNs(x.length());
                }
                case Op.Copy x -> {
                    double ns = x.length() * model.copyNsPerByte();
                    total += ns;
                    cpu += ns;
                }
                case Op.NodeWrite x -> {
                    double ns = x.length() * model.copyNsPerByte();
                    total += ns;
                    cpu += ns;
                }
                case Op.NodeRead x -> {
                    double ns = x.length() * model.copyNsPerByte();
                    total += ns;
                    cpu += ns;
                }
                case Op.Publish x -> {
                }
                // One copy by the kernel plus a system call's startup (decision 0143).
                case Op.PeerRead x -> {
                    double ns = shm.messageNs(0) + x.length() * model.copyNsPerByte();
                    total += ns;
                    cpu += ns;
                }
                case Op.PeerWrite x -> {
                    double ns = shm.messageNs(0) + x.length() * model.copyNsPerByte();
                    total += ns;
                    cpu += ns;
                }
                // A node flag crosses the node as a cache line: one shared-memory startup, with the bytes a raise
                // carries in that line included (decision 0202).
                case Op.AwaitFlag x -> total += shm.messageNs(0);
                // Every rank waits out one delivery (the root sends it, the others receive it).
                case Op.Multicast x -> total += MulticastTime.ns(x.length(), p.size(), model);
                case Op.Reduce x -> {
                    // Priced as the simulator prices it: a copy plus the combining cost (gamma) per byte.
                    double ns = x.length() * (model.copyNsPerByte() + model.reduceNsPerByte());
                    total += ns;
                    cpu += ns;
                }
            }
        }
        total += phase(puts, putBytes, k, shm, rail);
        double receiving = phase(recvs, recvBytes, k, shm, rail);
        return new RankTime(Math.max(total, receiving), railSent, railReceived, cpu);
    }

    /** {@code ceil(n/k) (alpha + mean bytes * beta)} per link class, the classes one after the other; resets. */
    private static double phase(long[] count, long[] bytes, int k, LinkCost shm, LinkCost rail) {
        double ns = 0;
        for (int c = 0; c < 2; c++) {
            if (count[c] > 0) {
                LinkCost l = c == 0 ? shm : rail;
                ns += Math.ceil((double) count[c] / k) * l.messageNs(Math.round((double) bytes[c] / count[c]));
            }
            count[c] = 0;
            bytes[c] = 0;
        }
        return ns;
    }

    /** First, second, middle and last of {@code n} (fewer when n is small). */
    private static TreeSet<Integer> samples(int n) {
        TreeSet<Integer> s = new TreeSet<>();
        s.add(0);
        s.add(Math.min(1, n - 1));
        s.add(n / 2);
        s.add(n - 1);
        return s;
    }
}
