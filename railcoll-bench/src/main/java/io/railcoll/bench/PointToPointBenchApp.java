package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.launcher.RankApp;
import io.railcoll.transport.RailCounters;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Paper 004's micro-benchmarks between two ranks on two nodes, on the public API: a 2-rank broadcast is one put
 * from the root to the other rank, and a 2-rank all-gather is one put each way at once.
 * <ul>
 *   <li>{@code bandwidth}: a window of {@code window} broadcasts from rank 0, timed on rank 0. A broadcast returns
 *       on the root only when the receiver acknowledged every byte (the rails keep data until then, see
 *       docs/rails.md), so the window ends when the last byte is at the receiver, as paper 004's ends with the
 *       receiver's notification. Bandwidth = window x size / time.</li>
 *   <li>{@code bibandwidth}: a window of all-gathers, each rank sending {@code size} bytes; both directions
 *       counted (OSU's bibw): 2 x window x size / time.</li>
 *   <li>{@code latency}: ping-pong, a broadcast from rank 0 then one from rank 1; one-way latency = time / 2.</li>
 * </ul>
 * Every sample also splits rank 0's time as paper 004's section 5.5 does: time spent posting (inside the rails'
 * put, from {@link RailCounters#postNanos()}) and the rest, waiting for completion.
 *
 * <p>Rank 0 appends one line per sample to {@code out}:
 * {@code mode,size_bytes,us_per_message,bandwidth_mbit_s,post_us,wait_us} (post and wait per message too, so
 * they add up to {@code us_per_message}; a latency message is one half of a ping-pong). Arguments (key=value): mode, sizes, window, warmup, samples, iterations (ping-pongs per latency
 * sample), budget-ms (caps the windows of large sizes), check, out.
 */
public final class PointToPointBenchApp implements RankApp {
    private static final int WARMUP_ROUNDS = 1000;
    private static final long WARMUP_NS = 3_000_000_000L;
    private static final long WARMUP_MIN_UNITS = 30_000;

    @Override
    public void run(Communicator comm, List<String> args) throws IOException {
        Options o = Options.parse(args);
        if (comm.size() != 2 || comm.placement().nodeOf(0) == comm.placement().nodeOf(1)) {
            throw new IllegalArgumentException("the point-to-point benchmarks run on exactly 2 ranks on 2 nodes "
                    + "(--nodes 2 --ranks-per-node 1), got " + comm.size() + " ranks (" + comm.placement().describe() + ")");
        }
        // With 2 ranks these are exactly one put root -> other (broadcast) and one put each way (all-gather); forced so
        // that selection rules written for large jobs cannot swap in a multi-step algorithm.
        comm.forceAlgorithm("broadcast.knomial");
        comm.forceAlgorithm("allgather.direct");
        PrintWriter raw = comm.rank() == 0 ? new PrintWriter(Files.newBufferedWriter(o.out)) : null;
        try (Arena arena = Arena.ofShared()) {
            long max = Arrays.stream(o.sizes).max().orElse(0);
            MemorySegment send = arena.allocate(Math.max(1, max), 64);
            MemorySegment recv = arena.allocate(Math.max(1, 2 * max), 64);
            // JIT warm-up for every size at once (they share the code path): otherwise the first size measured
            // pays for compilation. By time, not a count: 3000 ping-pongs (a tenth of a second) left the engine
            // half-compiled, and the one-way latency measured 60 us where the steady state is 15 us.
            long small = Arrays.stream(o.sizes).min().orElse(0);
            warmUpJit(comm, o.mode, send.asSlice(0, small),
                    recv.asSlice(0, o.mode.equals("bibandwidth") ? 2 * small : small));
            // Each size's preparation, then one untimed settling pass over every size through the very method that
            // times them: measured size after size without it, whichever size came first measured 2-4x its steady
            // latency (1 B 49.6 us against 1 KiB 12.6 on the 16-processor machine; 1 KiB first, 24.2 against 11.3
            // for 8 B here), after a warm-up at the smallest size.
            int[] windows = new int[o.sizes.length];
            for (int z = 0; z < o.sizes.length; z++) {
                MemorySegment s = sendOf(send, o.sizes[z]);
                MemorySegment r = recvOf(o, recv, o.sizes[z]);
                if (o.check) {
                    check(comm, o.mode, o.sizes[z], s, r);
                }
                round(comm, o.mode, s, r, 4);
                windows[z] = windowFor(comm, o, o.sizes[z], s, r);
                for (int i = 0; i < o.warmup; i++) {
                    round(comm, o.mode, s, r, windows[z]);
                }
            }
            for (int z = 0; z < o.sizes.length; z++) {
                sample(comm, o, o.sizes[z], sendOf(send, o.sizes[z]), recvOf(o, recv, o.sizes[z]), windows[z], null);
            }
            for (int z = 0; z < o.sizes.length; z++) {
                MemorySegment s = sendOf(send, o.sizes[z]);
                MemorySegment r = recvOf(o, recv, o.sizes[z]);
                for (int sample = 0; sample < o.samples; sample++) {
                    sample(comm, o, o.sizes[z], s, r, windows[z], raw);
                }
                if (comm.rank() == 0) {
                    System.out.println("PROGRESS " + o.mode + " " + o.sizes[z]);
                }
            }
        } finally {
            if (raw != null) {
                raw.close();
            }
        }
        if (comm.rank() == 0) {
            System.out.print(comm.railCounters().report().lines().map(l -> "RAILS " + l + "\n").reduce("", String::concat));
        }
    }

    private static MemorySegment sendOf(MemorySegment send, long size) {
        return send.asSlice(0, size);
    }

    private static MemorySegment recvOf(Options o, MemorySegment recv, long size) {
        return recv.asSlice(0, o.mode.equals("bibandwidth") ? 2 * size : size);
    }

    /** One sample of {@code window} units at {@code size}; rank 0 writes its line to {@code raw} unless that is null. */
    private static void sample(Communicator comm, Options o, long size, MemorySegment s, MemorySegment r, int window,
                               PrintWriter raw) {
        comm.allgather(MemorySegment.ofArray(new byte[1]), MemorySegment.ofArray(new byte[2]));
        RailCounters counters = comm.railCounters();
        long post0 = counters.postNanos();
        long t0 = System.nanoTime();
        round(comm, o.mode, s, r, window);
        long ns = System.nanoTime() - t0;
        long post = counters.postNanos() - post0;
        if (raw != null) {
            raw.println(line(o.mode, size, window, ns, post));
            raw.flush();
        }
    }

    /**
     * Rounds of {@link #WARMUP_ROUNDS} units until {@link #WARMUP_NS} have passed and {@link #WARMUP_MIN_UNITS} were
     * made; rank 0 decides after each round, so both ranks make the same calls.
     */
    private static void warmUpJit(Communicator comm, String mode, MemorySegment s, MemorySegment r) {
        MemorySegment more = MemorySegment.ofArray(new byte[1]);
        long start = System.nanoTime();
        for (long units = 0; ; units += WARMUP_ROUNDS) {
            round(comm, mode, s, r, WARMUP_ROUNDS);
            boolean again = System.nanoTime() - start < WARMUP_NS || units < WARMUP_MIN_UNITS;
            more.set(ValueLayout.JAVA_BYTE, 0, (byte) (again ? 1 : 0));
            comm.broadcast(more, 0);
            if (more.get(ValueLayout.JAVA_BYTE, 0) == 0) {
                return;
            }
        }
    }

    /** One timed unit: a window of puts (bandwidth modes) or {@code window} ping-pongs (latency). */
    private static void round(Communicator comm, String mode, MemorySegment s, MemorySegment r, int window) {
        switch (mode) {
            case "bandwidth" -> {
                for (int i = 0; i < window; i++) {
                    comm.broadcast(comm.rank() == 0 ? s : r, 0);
                }
            }
            case "bibandwidth" -> {
                for (int i = 0; i < window; i++) {
                    comm.allgather(s, r);
                }
            }
            case "latency" -> {
                for (int i = 0; i < window; i++) {
                    comm.broadcast(comm.rank() == 0 ? s : r, 0);
                    comm.broadcast(comm.rank() == 1 ? s : r, 1);
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode + ": bandwidth, bibandwidth or latency");
        }
    }

    static String line(String mode, long size, int window, long ns, long postNs) {
        double messages = mode.equals("latency") ? 2.0 * window : window;
        double usPerMessage = ns / 1e3 / messages;
        double bytes = mode.equals("bibandwidth") ? 2.0 * window * size : mode.equals("latency") ? 2.0 * window * size
                : (double) window * size;
        double mbit = ns == 0 ? 0 : bytes * 8 / (ns / 1e9) / 1e6;
        return String.format(Locale.ROOT, "%s,%d,%.3f,%.1f,%.3f,%.3f", mode, size, usPerMessage, mbit,
                postNs / 1e3 / messages, (ns - postNs) / 1e3 / messages);
    }

    /** The window for one size: {@code window}, fewer when one round would exceed the budget (rank 0 decides). */
    private static int windowFor(Communicator comm, Options o, long size, MemorySegment s, MemorySegment r) {
        long t0 = System.nanoTime();
        round(comm, o.mode, s, r, 4);
        long one = Math.max(1, (System.nanoTime() - t0) / 4);
        // A byte[]-backed segment: the rails view heap segments as byte buffers, which only byte arrays allow.
        MemorySegment est = MemorySegment.ofArray(new byte[Long.BYTES]);
        est.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, one);
        comm.broadcast(est, 0);
        long agreed = est.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        return (int) Math.max(4, Math.min(o.window, o.budgetNs / agreed));
    }

    private static void check(Communicator comm, String mode, long size, MemorySegment s, MemorySegment r) {
        int rank = comm.rank();
        for (long i = 0; i < size; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + rank * 13 + size));
        }
        r.fill((byte) 0);
        round(comm, mode.equals("latency") ? "bandwidth" : mode, s, r, 1);
        for (int from = 0; from < 2; from++) {
            if (mode.equals("bibandwidth") ? false : (from == 1 || rank == 0)) {
                continue;
            }
            long base = mode.equals("bibandwidth") ? from * size : 0;
            for (long i = 0; i < size; i++) {
                byte want = (byte) (i * 7 + from * 13 + size);
                if (r.get(ValueLayout.JAVA_BYTE, base + i) != want) {
                    throw new AssertionError("rank " + rank + ": " + mode + " check failed at " + size + " bytes: byte "
                            + i + " from rank " + from + " is wrong");
                }
            }
        }
    }

    private record Options(String mode, long[] sizes, int window, int warmup, int samples, long budgetNs,
                           boolean check, Path out) {
        static Options parse(List<String> args) {
            String mode = "bandwidth";
            long[] sizes = {8, 4096, 1 << 20};
            int window = 64;
            int warmup = 2;
            int samples = 5;
            long budgetNs = 200_000_000L;
            boolean check = false;
            Path out = Path.of("p2p-raw.csv");
            for (String a : args) {
                int eq = a.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("expected key=value, got " + a);
                }
                String k = a.substring(0, eq);
                String v = a.substring(eq + 1);
                switch (k) {
                    case "mode" -> mode = v;
                    case "sizes" -> sizes = Arrays.stream(v.split(",")).mapToLong(Long::parseLong).toArray();
                    case "window", "iterations" -> window = Integer.parseInt(v);
                    case "warmup" -> warmup = Integer.parseInt(v);
                    case "samples" -> samples = Integer.parseInt(v);
                    case "budget-ms" -> budgetNs = Long.parseLong(v) * 1_000_000L;
                    case "check" -> check = Boolean.parseBoolean(v);
                    case "out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + k);
                }
            }
            if (!List.of("bandwidth", "bibandwidth", "latency").contains(mode)) {
                throw new IllegalArgumentException("unknown mode " + mode + ": bandwidth, bibandwidth or latency");
            }
            return new Options(mode, sizes, window, warmup, samples, budgetNs, check, out);
        }
    }
}
