package io.railcoll.bench.tune;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * Ping-pong between the two ranks of a 2-rank job, through the public API: a 2-rank broadcast is exactly one put
 * from the root to the other rank, so a broadcast from rank 0 followed by one from rank 1 is a round trip. Placed on
 * one node it measures the shared-memory link, on two nodes the rails (striped above the stripe threshold, as any
 * put is). One-way time = round trip / 2, the Hockney {@code ts + m tau} of one message.
 *
 * <p>Each sample times {@code rounds} round trips, the number chosen per size so a sample lasts about
 * {@code budget-ms}; rank 0 appends {@code size_bytes,one_way_ns} per sample to {@code out}. Arguments
 * (key=value): sizes, samples, warmup, budget-ms, out (see {@link TuneArgs}).
 */
public final class PingPongApp implements RankApp {

    @Override
    public void run(Communicator comm, List<String> args) throws IOException {
        TuneArgs o = TuneArgs.parse(args);
        if (comm.size() != 2) {
            throw new IllegalArgumentException("ping-pong runs on exactly 2 ranks, got " + comm.size() + " ("
                    + comm.placement().describe() + ")");
        }
        // Forced: with 2 ranks the k-nomial broadcast is one put, whatever the rules say for larger jobs.
        comm.forceAlgorithm("broadcast.knomial");
        PrintWriter out = comm.rank() == 0 ? new PrintWriter(Files.newBufferedWriter(o.out())) : null;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buffer = arena.allocate(Math.max(1, o.maxSize()), 64);
            for (long size : o.sizes()) {
                MemorySegment b = buffer.asSlice(0, size);
                roundTrips(comm, b, o.warmup());
                int rounds = Timing.agreedRepetitions(comm, o.budgetNs(), () -> roundTrips(comm, b, 1));
                for (int s = 0; s < o.samples(); s++) {
                    long t0 = System.nanoTime();
                    roundTrips(comm, b, rounds);
                    long oneWay = (System.nanoTime() - t0) / (2L * rounds);
                    if (out != null) {
                        out.printf(Locale.ROOT, "%d,%d%n", size, oneWay);
                        out.flush();
                    }
                }
            }
        } finally {
            if (out != null) {
                out.close();
            }
        }
    }

    private static void roundTrips(Communicator comm, MemorySegment b, int rounds) {
        for (int i = 0; i < rounds; i++) {
            comm.broadcast(b, 0);
            comm.broadcast(b, 1);
        }
    }
}
