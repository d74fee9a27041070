package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.VariantCases;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.launcher.RankApp;
import io.railcoll.reduce.PredefinedOperator;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rank programs for {@code VariableSystemTest}: the v-variants (gatherv, scatterv, all-gatherv, all-to-allv,
 * reduce-scatter with per-rank counts), each case's buffers compared byte for byte with a sequential reference
 * computed by railcoll-core's {@code VariantCases} (its test jar): the same cases as the in-process
 * {@code VariableCollectivesTest}, on real processes.
 */
final class VariableApps {
    private static final List<Collective> VARIANTS = List.of(Collective.GATHERV, Collective.SCATTERV,
            Collective.ALLGATHERV, Collective.ALLTOALLV, Collective.REDUCE_SCATTERV);

    private VariableApps() {
    }

    /**
     * Every algorithm of each v-variant forced in turn, then the automatic choice, over several count vectors, roots
     * in turn, packed and scattered displacements and in-place forms; prints {@code VARIANTS-CHECKED n cases} on
     * rank 0.
     */
    public static final class Check implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            int n = comm.size();
            int cases = 0;
            for (Collective c : VARIANTS) {
                List<String> ids = new ArrayList<>();
                for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
                    ids.add(a.id());
                }
                ids.add("auto");
                for (String id : ids) {
                    if (id.equals("auto")) {
                        comm.clearForcedAlgorithm(c);
                    } else {
                        comm.forceAlgorithm(id);
                    }
                    List<long[]> vectors = VariantCases.countVectors(n, c.id().hashCode() ^ id.hashCode());
                    for (int v = 0; v < vectors.size(); v++) {
                        int root = (v + cases) % n;
                        boolean spread = v % 2 == 1;
                        boolean inPlace = v % 3 == 2;
                        String label = "rank " + comm.rank() + ": " + c.id() + " " + id + " counts="
                                + Arrays.toString(vectors.get(v)) + " root=" + root + (spread ? " spread" : "")
                                + (inPlace ? " in place" : "");
                        VariantCases.runCase(comm, c, vectors.get(v), root, spread, inPlace, cases, label);
                        cases++;
                    }
                }
            }
            comm.barrier();
            if (comm.rank() == 0) {
                System.out.println("VARIANTS-CHECKED " + cases + " cases");
            }
        }
    }

    /**
     * Args: the collective's id. Rank 2 (of at least 3) passes other counts than the others, in an entry for a block
     * that is empty for everyone else, so that ranks which exchange no data must still find out. Every rank fails
     * (the launcher prints its {@code FAILED} line).
     */
    public static final class Mismatch implements RankApp {
        @Override
        public void run(Communicator comm, List<String> args) {
            Collective c = Collective.fromId(args.get(0));
            comm.barrier();
            long[] counts = new long[comm.size()];
            counts[1] = 16;
            if (comm.rank() == 2) {
                counts[0] = 8;
            }
            int n = comm.size();
            switch (c) {
                case GATHERV -> comm.gatherv(new byte[16], new byte[32], counts, null, 1);
                case SCATTERV -> comm.scatterv(new byte[32], counts, null, new byte[16], 1);
                case ALLGATHERV -> comm.allgatherv(new byte[16], new byte[32], counts, null);
                case ALLTOALLV -> {
                    long[] recvCounts = new long[n];
                    if (comm.rank() == 2) {
                        recvCounts[0] = 8;
                    }
                    comm.alltoallv(new byte[32], new long[n], null, new byte[32], recvCounts, null);
                }
                case REDUCE_SCATTERV -> {
                    long[] elements = new long[n];
                    for (int i = 0; i < n; i++) {
                        elements[i] = counts[i] / 8;
                    }
                    comm.reduceScatter(new long[4], new long[4], elements, PredefinedOperator.SUM);
                }
                default -> throw new IllegalArgumentException(c.id());
            }
            // A rank whose part ended before the disagreement was found meets it in its next call. That call runs by
            // messages here: a one-node job's barrier runs in the node buffer, where a node-mate that found the
            // mismatch and left is reported as a lost peer (its ABORT is not read there; see the issue note).
            comm.allgatherv(new byte[0], new byte[0], new long[n], null);
            System.out.println("rank " + comm.rank() + " finished the mismatched " + c.id());
        }
    }

}
