package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.bench.apps.AppArgs;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Collective;
import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
import io.railcoll.trace.OpTrace;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where the time of a small collective goes, in counts the host's load cannot distort: every rank prints, per call,
 * the frames, ACKs and bytes it sent and received on each rail, its selector returns, futex calls, doorbell rings,
 * node-step ops, hand-offs to rail threads, engine sleeps and context switches ({@link CallCounters}); then the
 * median times of the phases of single calls ({@link OpTrace}): node gather (call start to the first rail put, or to
 * the end of a node-phased algorithm's gather step), inter-node exchange (to the last rail receive, or the end of the
 * masters' program), node broadcast (to the end of the call); a rank without rail traffic counts its wait for its
 * master's release as gather. Needs every rank's JVM to run with
 * {@code -Drailcoll.counters=true} ({@code bin/railcoll run --jvm-option=-Drailcoll.counters=true ...}).
 *
 * <p>Arguments (key=value): collective (default allgather), algorithm (an id, or auto; default auto), size (bytes
 * per rank, default 1), calls (counted back-to-back calls, default 1000), warmup (default 3000), traced (single calls
 * timed by phase, each after a barrier, default 200). Output lines, one per rank (and the load average on rank 0):
 *
 * <pre>
 * BREAKDOWN rank=0 alg=... per_call: rail0_data_tx=... ... ctxt_vol=...
 * PHASES rank=0 alg=... calls=200 total_us=... gather_us=... exchange_us=... broadcast_us=... (medians)
 * TIMELINE rank=0 START+0.0 AWAIT+3.1 ... (one call, microseconds from its start)
 * </pre>
 */
public final class LatencyBreakdownApp implements RankApp {
    @Override
    public void run(Communicator comm, List<String> args) {
        if (!CallCounters.ON) {
            throw new IllegalStateException("LatencyBreakdownApp needs -Drailcoll.counters=true on every rank"
                    + " (bin/railcoll run --jvm-option=-Drailcoll.counters=true ...)");
        }
        AppArgs a = AppArgs.parse("LatencyBreakdownApp", args,
                Set.of("collective", "algorithm", "size", "calls", "warmup", "traced"));
        Collective collective = Collective.fromId(a.string("collective", Collective.ALLGATHER.id()));
        String algorithm = a.string("algorithm", "auto");
        long size = a.longValue("size", 1, 0);
        int calls = a.intValue("calls", 1000, 1);
        int warmup = a.intValue("warmup", 3000, 0);
        int traced = a.intValue("traced", 200, 1);
        if (!algorithm.equals("auto")) {
            comm.forceAlgorithm(algorithm);
        }
        int n = comm.size();
        String ran = algorithm.equals("auto") ? "auto:" + comm.selectedAlgorithm(collective, size, 0) : algorithm;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(Math.max(1, collective.sendBytes(size, n)), 64)
                    .asSlice(0, collective.sendBytes(size, n));
            long recvBytes = collective == Collective.BROADCAST ? size : collective.recvBytes(size, n, comm.rank(), 0);
            MemorySegment r = arena.allocate(Math.max(1, recvBytes), 64).asSlice(0, recvBytes);
            for (int i = 0; i < warmup; i++) {
                BenchApp.call(comm, collective, s, r, 0);
            }
            comm.barrier();
            long[] before = CallCounters.snapshot();
            long[] ctxtBefore = contextSwitches();
            for (int i = 0; i < calls; i++) {
                BenchApp.call(comm, collective, s, r, 0);
            }
            long[] after = CallCounters.snapshot();
            long[] ctxtAfter = contextSwitches();
            comm.barrier();
            printCounts(comm.rank(), ran, calls, before, after, ctxtBefore, ctxtAfter);
            tracePhases(comm, collective, s, r, ran, traced);
        } finally {
            comm.clearForcedAlgorithm(collective);
        }
        if (comm.rank() == 0) {
            System.out.println("LOAD " + loadAverage());
        }
    }

    private static void printCounts(int rank, String ran, int calls, long[] before, long[] after, long[] ctxtBefore,
                                    long[] ctxtAfter) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "BREAKDOWN rank=%d alg=%s calls=%d per_call:", rank, ran, calls));
        for (Event e : CallCounters.events()) {
            if (e.perRail()) {
                for (int rail = 0; rail < CallCounters.RAILS; rail++) {
                    long d = CallCounters.get(after, e, rail) - CallCounters.get(before, e, rail);
                    if (d != 0) {
                        sb.append(String.format(Locale.ROOT, " %s_r%d=%.2f", e.name().toLowerCase(Locale.ROOT), rail,
                                d / (double) calls));
                    }
                }
            } else {
                long d = CallCounters.total(after, e) - CallCounters.total(before, e);
                sb.append(String.format(Locale.ROOT, " %s=%.2f", e.name().toLowerCase(Locale.ROOT), d / (double) calls));
            }
        }
        sb.append(String.format(Locale.ROOT, " ctxt_voluntary=%.2f ctxt_involuntary=%.2f",
                (ctxtAfter[0] - ctxtBefore[0]) / (double) calls, (ctxtAfter[1] - ctxtBefore[1]) / (double) calls));
        System.out.println(sb);
    }

    /** Single calls after a barrier, their ops timed: medians of the three phases, and one call's timeline. */
    private static void tracePhases(Communicator comm, Collective collective, MemorySegment s, MemorySegment r,
                                    String ran, int traced) {
        long[] total = new long[traced];
        long[] gather = new long[traced];
        long[] exchange = new long[traced];
        long[] broadcast = new long[traced];
        String timeline = "";
        for (int c = 0; c < traced; c++) {
            comm.barrier();
            OpTrace.arm();
            BenchApp.call(comm, collective, s, r, 0);
            OpTrace.disarm();
            int ops = OpTrace.count();
            if (ops < 2) {
                throw new IllegalStateException("traced call recorded " + ops + " ops: is it run by the engine?");
            }
            long t0 = OpTrace.time(0);
            long end = OpTrace.time(ops - 1);
            long gatherEnd = -1;
            long exchangeEnd = -1;
            long lastAwait = -1;
            long lastEngine = -1;
            boolean nodePhased = false;
            for (int i = 0; i < ops; i++) {
                int k = OpTrace.kind(i);
                long t = OpTrace.time(i);
                switch (k) {
                    case 0 -> gatherEnd = gatherEnd < 0 ? t : gatherEnd;
                    case 1 -> exchangeEnd = t;
                    case 7 -> lastAwait = t;
                    case OpTrace.NODE_GATHERED -> {
                        nodePhased = true;
                        gatherEnd = t;
                    }
                    default -> { }
                }
                if (k >= OpTrace.FINISH) {
                    lastEngine = t;
                }
            }
            if (nodePhased) {
                // The node steps run around the engine: the exchange is the masters' program, if this rank has one.
                exchangeEnd = lastEngine > gatherEnd ? lastEngine : gatherEnd;
            } else if (gatherEnd < 0) {
                // Not a master: it waits in node steps for its master's release, then copies out.
                gatherEnd = lastAwait < 0 ? t0 : lastAwait;
                exchangeEnd = gatherEnd;
            }
            if (exchangeEnd < gatherEnd) {
                exchangeEnd = gatherEnd;
            }
            total[c] = end - t0;
            gather[c] = gatherEnd - t0;
            exchange[c] = exchangeEnd - gatherEnd;
            broadcast[c] = end - exchangeEnd;
            if (c == traced / 2) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < ops; i++) {
                    sb.append(' ').append(kindName(OpTrace.kind(i))).append('+')
                            .append(String.format(Locale.ROOT, "%.1f", (OpTrace.time(i) - t0) / 1e3));
                }
                timeline = sb.toString();
            }
        }
        System.out.printf(Locale.ROOT, "PHASES rank=%d alg=%s calls=%d total_us=%.1f gather_us=%.1f exchange_us=%.1f"
                        + " broadcast_us=%.1f (medians)%n", comm.rank(), ran, traced, median(total), median(gather),
                median(exchange), median(broadcast));
        System.out.println("TIMELINE rank=" + comm.rank() + timeline);
    }

    private static double median(long[] ns) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e3;
    }

    private static String kindName(int kind) {
        return switch (kind) {
            case OpTrace.START -> "START";
            case OpTrace.FINISH -> "FINISH";
            case OpTrace.NODE_CALL -> "NODE_CALL";
            case OpTrace.NODE_GATHERED -> "NODE_GATHERED";
            case OpTrace.NODE_BROADCAST -> "NODE_BROADCAST";
            case 0 -> "PUT";
            case 1 -> "RECV";
            case 2 -> "COPY";
            case 3 -> "REDUCE";
            case 4 -> "NODE_WRITE";
            case 5 -> "NODE_READ";
            case 6 -> "PUBLISH";
            case 7 -> "AWAIT";
            default -> "op" + kind;
        };
    }

    /** Voluntary and involuntary context switches of every thread of this process so far. */
    private static long[] contextSwitches() {
        long[] sum = new long[2];
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(t.resolve("status"));
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                for (String l : lines) {
                    if (l.startsWith("voluntary_ctxt_switches:")) {
                        sum[0] += Long.parseLong(l.substring(l.indexOf(':') + 1).strip());
                    } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                        sum[1] += Long.parseLong(l.substring(l.indexOf(':') + 1).strip());
                    }
                }
            }
        } catch (IOException e) {
            return new long[2]; // not Linux: no counts
        }
        return sum;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
