package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.schedule.Traffic;

/**
 * What the k-port Standard Exchange all-gather and all-to-all (paper 000 sections 5.1.2 and 5.1.3) share around the
 * fold of {@link ExchangeLayout}: the tags, an extra's whole program, and the design's message pattern from which
 * both state their cost. An extra puts its data to its owner before the exchange and receives its {@code N b}
 * result after it; at level l an owner puts to each of its peers ({@link ExchangeLayout#peers}) and then receives
 * from each in the same order; an owner with an extra receives the extra's data first and puts the result to it
 * last. What the messages carry is each algorithm's own. Stateless.
 */
public final class StandardExchange {
    /** An extra's data to its owner, before the exchange. */
    public static final int FOLD_IN_TAG = 0;
    /** An owner's result to its extra, after the exchange. */
    public static final int FOLD_OUT_TAG = 1;
    /** Level l of the exchange uses tag {@code LEVEL_TAG + l}. */
    public static final int LEVEL_TAG = 2;

    private StandardExchange() {
    }

    /** The bytes virtual rank {@code v} puts at {@code level} to its peer {@code peer} (a virtual rank). */
    @FunctionalInterface
    public interface LevelBytes {
        long of(int v, int level, int peer);
    }

    /** An extra's program: {@code foldInBytes} of SEND to its owner, then the {@code N b} result into RECV. */
    public static RankProgram extra(ExchangeLayout layout, int rank, long foldInBytes, long blockBytes) {
        int owner = layout.owner(layout.virtualOf(rank));
        ProgramBuilder p = new ProgramBuilder(rank);
        p.put(owner, Buffer.SEND, 0, foldInBytes, FOLD_IN_TAG);
        p.recv(owner, FOLD_OUT_TAG, Buffer.RECV, 0, layout.size() * blockBytes);
        return p.build();
    }

    /**
     * The cost of the design's messages, in each rank's order, through the {@link Traffic} model: the longest
     * paths through the exchange, sizes from {@code foldInBytes} and {@code levelBytes} rather than from programs.
     */
    public static CostTerms cost(Shape shape, ExchangeLayout layout, long foldInBytes, LevelBytes levelBytes,
                                 String formula) {
        int n = shape.size();
        Traffic traffic = new Traffic(n);
        for (int rank = 0; rank < n; rank++) {
            int v = layout.virtualOf(rank);
            if (!layout.isOwner(rank)) {
                traffic.send(rank, layout.owner(v), FOLD_IN_TAG, foldInBytes).receive(rank, layout.owner(v),
                        FOLD_OUT_TAG);
                continue;
            }
            int extra = layout.extraOf(rank);
            if (extra >= 0) {
                traffic.receive(rank, extra, FOLD_IN_TAG);
            }
            for (int l = 0; l < layout.levels(); l++) {
                for (int peer : layout.peers(v, l)) {
                    traffic.send(rank, layout.owner(peer), LEVEL_TAG + l, levelBytes.of(v, l, peer));
                }
                for (int peer : layout.peers(v, l)) {
                    traffic.receive(rank, layout.owner(peer), LEVEL_TAG + l);
                }
            }
            if (extra >= 0) {
                traffic.send(rank, extra, FOLD_OUT_TAG, n * shape.blockBytes());
            }
        }
        return traffic.cost(shape.placement(), shape.ports(), formula);
    }
}
