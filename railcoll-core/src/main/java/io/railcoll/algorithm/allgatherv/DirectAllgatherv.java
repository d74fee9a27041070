package io.railcoll.algorithm.allgatherv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.OwnBlockInPlace;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Direct all-gatherv ({@code allgather.direct}, paper 000 sec. 5.1.2, with a size per rank): rank p puts its
 * {@code c_p} bytes straight into its place in the RECV of ranks {@code p+1, p+2, ...} (mod N) and receives from
 * {@code p-1, p-2, ...}, so in step i the k ranks that reach p are the k it waits for.
 *
 * <p>Steps {@code ceil((N-1)/k)}; beta bytes: the sum over the k-wide steps of the largest block arriving then (at
 * most {@code ceil((N-1)/k) max c}); rank p sends {@code (N-1) c_p} and receives {@code total - c_p}. No TEMP. Any N,
 * k, counts; suited to small and medium totals.
 */
public final class DirectAllgatherv extends AlgorithmBase implements OwnBlockInPlace {
    public static final String ID = "allgatherv.direct";
    private static final int TAG = 0;

    public DirectAllgatherv() {
        super(ID, Collective.ALLGATHERV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts c = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, 0, Buffer.RECV, c.offset(rank), c.of(rank));
        for (int i = 1; i < n; i++) {
            p.put((rank + i) % n, Buffer.SEND, 0, c.of(rank), TAG);
        }
        for (int i = 1; i < n; i++) {
            int from = Math.floorMod(rank - i, n);
            p.recv(from, TAG, Buffer.RECV, c.offset(from), c.of(from));
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            for (int i = 1; i < n; i++) {
                t.send(r, (r + i) % n, TAG, shape.counts().of(r));
            }
            for (int i = 1; i < n; i++) {
                t.receive(r, Math.floorMod(r - i, n), TAG);
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil((N-1)/k) ts + (sum over k-wide steps of their "
                + "largest c_i) tau  [paper 000 eq. (2)]");
    }

    @Override
    public String summary() {
        return "every rank puts its c_p bytes into every other RECV; ceil((N-1)/k)*ts + <= ceil((N-1)/k)*max(c)*tau; "
                + "any N, k, counts; paper 000 sec. 5.1.2 eq. (2)";
    }
}
