package io.railcoll.bench.apps;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * One rank's part of the CG app: its block of rows ({@link BlockSplit}), dot products as one all-reduce (sum) of the
 * rank's partial, and products with the matrix after a point-to-point halo exchange ({@link HaloPlan}). Both go
 * through {@link TimedCollectives}, which times them apart. Message buffers are native segments allocated once
 * (the transports take native memory and {@code byte[]} only); packing and unpacking them stays outside the timed
 * part, as the other apps' staging copies do. Used by the rank's single application thread.
 */
final class DistributedCgSpace implements CgSpace {
    private final PoissonGrid grid;
    private final int first;
    private final int count;
    private final HaloPlan plan;
    private final TimedCollectives timed;
    private final MemorySegment scalar;
    private final MemorySegment[] sends;
    private final MemorySegment[] recvs;
    private final int[] peers;
    /** This rank's window of the vector being multiplied: halo below, own rows, halo above. */
    private final double[] window;
    private final int corruptProduct;
    private int products;

    /**
     * @param corruptProduct 0, or (tests only) the product before which this rank adds 1 to the first unknown it
     *                       received, as a corrupted message would; the checks must then fail
     */
    DistributedCgSpace(PoissonGrid grid, BlockSplit split, int rank, TimedCollectives timed, Arena arena,
                       int corruptProduct) {
        this.grid = grid;
        this.first = (int) split.start(rank);
        this.count = split.count(rank);
        this.plan = HaloPlan.of(grid, split, rank);
        this.timed = timed;
        this.corruptProduct = corruptProduct;
        this.scalar = arena.allocate(Double.BYTES, 8);
        List<HaloPlan.Peer> list = plan.peers();
        this.peers = new int[list.size()];
        this.sends = new MemorySegment[list.size()];
        this.recvs = new MemorySegment[list.size()];
        for (int k = 0; k < list.size(); k++) {
            peers[k] = list.get(k).rank();
            sends[k] = arena.allocate((long) Double.BYTES * list.get(k).sendCount(), 8);
            recvs[k] = arena.allocate((long) Double.BYTES * list.get(k).recvCount(), 8);
        }
        this.window = new double[plan.hi() - plan.lo()];
    }

    @Override
    public int length() {
        return count;
    }

    @Override
    public double dot(double[] a, double[] b) {
        scalar.set(ValueLayout.JAVA_DOUBLE, 0, CgSpace.partialDot(a, b, 0, count));
        timed.allreduceSum(scalar, 1);
        return scalar.get(ValueLayout.JAVA_DOUBLE, 0);
    }

    @Override
    public void apply(double[] v, double[] out) {
        products++;
        System.arraycopy(v, 0, window, first - plan.lo(), count);
        List<HaloPlan.Peer> list = plan.peers();
        for (int k = 0; k < list.size(); k++) {
            HaloPlan.Peer p = list.get(k);
            MemorySegment.copy(v, p.sendFrom() - first, sends[k], ValueLayout.JAVA_DOUBLE, 0, p.sendCount());
        }
        timed.exchange(peers, sends, recvs);
        for (int k = 0; k < list.size(); k++) {
            HaloPlan.Peer p = list.get(k);
            MemorySegment.copy(recvs[k], ValueLayout.JAVA_DOUBLE, 0, window, p.recvFrom() - plan.lo(), p.recvCount());
        }
        if (products == corruptProduct && plan.received() > 0) {
            int at = list.stream().filter(p -> p.recvCount() > 0).findFirst().orElseThrow().recvFrom() - plan.lo();
            window[at] += 1;
        }
        grid.applyRows(window, plan.lo(), first, count, out);
    }

    HaloPlan plan() {
        return plan;
    }
}
