package io.railcoll.algorithm.alltoallv;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.BlockCounts;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * Direct all-to-allv ({@code alltoall.direct}, paper 000 sec. 5.1.3, with a count per pair; Open MPI's basic linear
 * alltoallv): rank p puts its block for q, {@code m[p][q]} bytes, straight into its place in q's RECV, to
 * {@code p+1, p+2, ...} (mod N), and receives from {@code p-1, p-2, ...}. Empty blocks go as empty messages, so every
 * pair of ranks compares its counts (decision 0085).
 *
 * <p>Steps {@code ceil((N-1)/k)}; beta bytes: the sum over the k-wide steps of the largest block arriving then; rank
 * p sends its row less {@code m[p][p]} and receives its column less it. No TEMP. Any N, k, counts.
 */
public final class DirectAlltoallv extends AlgorithmBase {
    public static final String ID = "alltoallv.direct";
    private static final int TAG = 0;

    public DirectAlltoallv() {
        super(ID, Collective.ALLTOALLV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts m = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, m.sendOffset(rank, rank), Buffer.RECV, m.recvOffset(rank, rank), m.of(rank, rank));
        for (int i = 1; i < n; i++) {
            int to = (rank + i) % n;
            p.put(to, Buffer.SEND, m.sendOffset(rank, to), m.of(rank, to), TAG);
        }
        for (int i = 1; i < n; i++) {
            int from = Math.floorMod(rank - i, n);
            p.recv(from, TAG, Buffer.RECV, m.recvOffset(from, rank), m.of(from, rank));
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            for (int i = 1; i < n; i++) {
                int to = (r + i) % n;
                t.send(r, to, TAG, shape.counts().of(r, to));
            }
            for (int i = 1; i < n; i++) {
                t.receive(r, Math.floorMod(r - i, n), TAG);
            }
        }
        return t.cost(shape.placement(), shape.ports(), "ceil((N-1)/k) ts + (sum over k-wide steps of their "
                + "largest block) tau  [paper 000 eq. (2)]");
    }

    @Override
    public String summary() {
        return "every rank puts each block m[p][q] into q's RECV at once; ceil((N-1)/k)*ts + <= ceil((N-1)/k)*max(m)*tau; "
                + "any N, k, counts; paper 000 sec. 5.1.3 eq. (2)";
    }
}
