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
 * Pairwise all-to-allv ({@code alltoall.pairwise} with a count per pair; MPICH's pairwise alltoallv): in step s
 * (1..N-1) rank p puts its block for {@code p+s} and receives the block of {@code p-s}, one partner each way per
 * step, so no rank is flooded by N-1 senders at once. Empty blocks go as empty messages (decision 0085).
 *
 * <p>Steps {@code N-1}, single-port; beta bytes: the longest chain of blocks through the steps (at most
 * {@code (N-1) max m}); rank p sends its row less {@code m[p][p]}, receives its column less it. No TEMP. Any N, counts;
 * suited to large or very uneven blocks.
 */
public final class PairwiseAlltoallv extends AlgorithmBase {
    public static final String ID = "alltoallv.pairwise";

    public PairwiseAlltoallv() {
        super(ID, Collective.ALLTOALLV);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        BlockCounts m = shape.counts();
        ProgramBuilder p = new ProgramBuilder(rank);
        p.copy(Buffer.SEND, m.sendOffset(rank, rank), Buffer.RECV, m.recvOffset(rank, rank), m.of(rank, rank));
        for (int s = 1; s < n; s++) {
            int to = (rank + s) % n;
            int from = Math.floorMod(rank - s, n);
            p.put(to, Buffer.SEND, m.sendOffset(rank, to), m.of(rank, to), s);
            p.recv(from, s, Buffer.RECV, m.recvOffset(from, rank), m.of(from, rank));
        }
        return p.build();
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        Traffic t = new Traffic(n);
        for (int r = 0; r < n; r++) {
            for (int s = 1; s < n; s++) {
                t.send(r, (r + s) % n, s, shape.counts().of(r, (r + s) % n));
                t.receive(r, Math.floorMod(r - s, n), s);
            }
        }
        return t.cost(shape.placement(), shape.ports(), "(N-1) ts + (longest chain of blocks through the steps) tau; "
                + "equal blocks b: (N-1) (ts + b tau), single-port");
    }

    @Override
    public String summary() {
        return "one partner per step, p+s and p-s, blocks of any size; (N-1)*ts + <= (N-1)*max(m)*tau, single-port; "
                + "any N, counts; paper 000 sec. 3.1";
    }
}
