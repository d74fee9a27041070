/*
 * MpjBench: the MPJ Express side of `railcoll bench --peer mpj`, timing one collective exactly as peer_bench.c
 * does for Open MPI and BenchApp does for railcoll (see peer_bench.c for the method): per size, warm-up calls
 * within --budget-us, iterations from the fastest of 3 calls (as many as fit --budget-us, at most --iterations),
 * then per sample untimed calls and timed calls, each timed alone with a barrier before it, every rank averaging
 * its own calls and the sample being the maximum over ranks. Same arguments and the same CSV on stdout (rank 0):
 *   info,library,"MPJ Express <version> (<device>)"   info,ranks,<N>   check,...   sample,...   rails,...   done,...
 * plus, with --rail-interfaces, one line per rank saying which node (testbed namespace) it runs in:
 *   node,<rank>,<node>        (node = last octet of the rank's rail0 address minus 1; -1 where it has none)
 *
 * Compiled by railcoll against MPJ Express's own mpj.jar (no railcoll class is used: it runs under MPJ's class
 * loaders), with --release 17 so MPJ's launchers may run it on any JDK from 17 on. Java 17 only, one file.
 */
import mpi.MPI;
import mpi.Intracomm;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

public class MpjBench {
    private static final int ROOT = 0;
    private static final byte POISON = (byte) 0xEE;

    private String collective;
    private long[] sizes = new long[0];
    private int warmup = 200;
    private int iterations = 1000;
    private int largeWarmup = 10;
    private int largeIterations = 100;
    private long largeFrom = 8192;
    private int samples = 5;
    private boolean check;
    private long budgetUs;
    private List<String> rails = new ArrayList<>();
    private String device = "?";

    private Intracomm world;
    private int rank;
    private int n;
    /** All-reduce operands: MPJ reduces typed arrays, so the doubles live apart from the byte buffers. */
    private double[] sendDoubles = new double[0];
    private double[] recvDoubles = new double[0];
    /** Reduce-scatter's per-rank counts (MPJ Express has no Reduce_scatter_block): every rank the same. */
    private int[] recvCounts = new int[0];

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        MpjBench b = new MpjBench();
        int status = 0;
        try {
            b.device = args.length > 2 ? args[2] : "?";
            b.parse(rest);
            status = b.run();
        } catch (IllegalArgumentException e) {
            System.err.println("MpjBench: " + e.getMessage());
            status = 2;
        }
        MPI.Finalize();
        if (status != 0) {
            System.exit(status);
        }
    }

    private void parse(String[] a) {
        for (int i = 0; i < a.length; i++) {
            String k = a[i];
            if (k.equals("--check")) {
                check = true;
                continue;
            }
            if (i + 1 >= a.length) {
                throw new IllegalArgumentException("missing value or unknown flag: " + k);
            }
            String v = a[++i];
            switch (k) {
                case "--collective" -> collective = v;
                case "--sizes" -> {
                    String[] parts = v.split(",");
                    sizes = new long[parts.length];
                    for (int j = 0; j < parts.length; j++) {
                        sizes[j] = Long.parseLong(parts[j]);
                    }
                }
                case "--warmup" -> warmup = Integer.parseInt(v);
                case "--iterations" -> iterations = Integer.parseInt(v);
                case "--large-warmup" -> largeWarmup = Integer.parseInt(v);
                case "--large-iterations" -> largeIterations = Integer.parseInt(v);
                case "--large-from" -> largeFrom = Long.parseLong(v);
                case "--samples" -> samples = Integer.parseInt(v);
                case "--budget-us" -> budgetUs = Long.parseLong(v);
                case "--rail-interfaces" -> rails = List.of(v.split(","));
                default -> throw new IllegalArgumentException("unknown flag " + k);
            }
        }
        if (collective == null) {
            throw new IllegalArgumentException("--collective is required");
        }
        if (collective.equals("barrier")) {
            sizes = new long[] {0};
        }
        if (!List.of("allgather", "gather", "bcast", "barrier", "alltoall", "allreduce", "reduce", "reduce-scatter", "scan")
                .contains(collective)) {
            throw new IllegalArgumentException("unknown collective " + collective);
        }
        for (long s : sizes) {
            if (reduces() && s % Double.BYTES != 0) {
                throw new IllegalArgumentException(collective + " sums doubles: every size must be a multiple of 8 bytes, not " + s);
            }
        }
    }

    private int run() throws Exception {
        world = MPI.COMM_WORLD;
        rank = world.Rank();
        n = world.Size();
        long max = 1;
        for (long s : sizes) {
            max = Math.max(max, s);
        }
        byte[] send = new byte[(int) (max * n)];
        byte[] recv = new byte[(int) (max * n)];
        if (reduces()) {
            // Reduce-scatter sends N blocks of the size; the others send one vector of it.
            sendDoubles = new double[(int) (max / Double.BYTES) * (collective.equals("reduce-scatter") ? n : 1)];
            recvDoubles = new double[(int) (max / Double.BYTES)];
            recvCounts = new int[n];
        }
        if (rank == 0) {
            System.out.println("info,library,\"MPJ Express (" + device + " device)\"");
            System.out.println("info,ranks," + n);
        }
        if (!rails.isEmpty()) {
            int[] mine = {nodeOfThisProcess()};
            int[] all = new int[n];
            world.Gather(mine, 0, 1, MPI.INT, all, 0, 1, MPI.INT, ROOT);
            if (rank == 0) {
                for (int r = 0; r < n; r++) {
                    System.out.println("node," + r + "," + all[r]);
                }
            }
        }
        int failed = 0;
        for (long size : sizes) {
            int s = (int) size;
            if (check && !collective.equals("barrier")) {
                int[] bad = {checkOnce(send, recv, s) > 0 ? 1 : 0};
                int[] badRanks = new int[1];
                world.Reduce(bad, 0, badRanks, 0, 1, MPI.INT, MPI.SUM, ROOT);
                if (rank == 0) {
                    System.out.println("check," + collective + "," + n + "," + size + (badRanks[0] == 0 ? ",ok" : ",FAILED," + badRanks[0]));
                    failed |= badRanks[0] == 0 ? 0 : 1;
                }
            }
            boolean large = size >= largeFrom;
            int w = large ? largeWarmup : warmup;
            int it = large ? largeIterations : iterations;
            if (budgetUs > 0) {
                warmUpWithin(send, recv, s, w);
                it = iterationsWithin(send, recv, s, it);
                w = Math.min(w, it);
            }
            long[] before = rails.isEmpty() ? null : counters();
            double windowStart = now();
            if (before != null) {
                world.Barrier();
                before = counters();
                windowStart = now();
            }
            for (int sample = 0; sample < samples; sample++) {
                double us = timeSample(send, recv, s, w, it);
                if (rank == 0) {
                    System.out.println(String.format(Locale.ROOT, "sample,%s,%d,%d,%d,%d,%.3f", collective, n, size, it, sample, us));
                }
            }
            if (before != null) {
                world.Barrier();
                long[] after = counters();
                long windowNs = (long) ((now() - windowStart) * 1e9);
                long[] delta = new long[2 * rails.size()];
                for (int i = 0; i < delta.length; i++) {
                    delta[i] = after[i] - before[i];
                }
                long[] all = new long[delta.length * n];
                world.Gather(delta, 0, delta.length, MPI.LONG, all, 0, delta.length, MPI.LONG, ROOT);
                if (rank == 0) {
                    long calls = (long) samples * (w + it);
                    for (int r = 0; r < n; r++) {
                        for (int i = 0; i < rails.size(); i++) {
                            System.out.println("rails,peer," + size + "," + r + "," + calls + "," + windowNs + "," + rails.get(i)
                                    + "," + all[r * delta.length + 2 * i] + "," + all[r * delta.length + 2 * i + 1]);
                        }
                    }
                }
            }
            if (rank == 0) {
                System.out.flush();
            }
        }
        if (rank == 0) {
            System.out.println("done," + collective + "," + n);
            System.out.flush();
        }
        return failed == 0 ? 0 : 3;
    }

    /**
     * Seconds from a monotonic clock with nanosecond resolution. MPJ Express's MPI.Wtime() counts milliseconds
     * (a 20 us call reads as 0 or 1000 us), so each call is timed with System.nanoTime, as railcoll's are.
     */
    private static double now() {
        return System.nanoTime() / 1e9;
    }

    private void call(byte[] send, byte[] recv, int size) {
        switch (collective) {
            case "allgather" -> world.Allgather(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
            case "gather" -> world.Gather(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE, ROOT);
            case "bcast" -> world.Bcast(recv, 0, size, MPI.BYTE, ROOT);
            case "barrier" -> world.Barrier();
            case "alltoall" -> world.Alltoall(send, 0, size, MPI.BYTE, recv, 0, size, MPI.BYTE);
            case "allreduce" -> world.Allreduce(sendDoubles, 0, recvDoubles, 0, size / Double.BYTES, MPI.DOUBLE, MPI.SUM);
            case "reduce" -> world.Reduce(sendDoubles, 0, recvDoubles, 0, size / Double.BYTES, MPI.DOUBLE, MPI.SUM, ROOT);
            case "reduce-scatter" -> {
                java.util.Arrays.fill(recvCounts, size / Double.BYTES);
                world.Reduce_scatter(sendDoubles, 0, recvDoubles, 0, recvCounts, MPI.DOUBLE, MPI.SUM);
            }
            case "scan" -> world.Scan(sendDoubles, 0, recvDoubles, 0, size / Double.BYTES, MPI.DOUBLE, MPI.SUM);
            default -> throw new IllegalStateException(collective);
        }
    }

    private double timeSample(byte[] send, byte[] recv, int size, int w, int it) {
        double busy = 0;
        world.Barrier();
        for (int i = 0; i < w + it; i++) {
            double start = now();
            call(send, recv, size);
            double stop = now();
            if (i >= w) {
                busy += stop - start;
            }
            if (!collective.equals("barrier")) {
                world.Barrier();
            }
        }
        double[] mine = {busy * 1e6 / it};
        double[] most = new double[1];
        world.Reduce(mine, 0, most, 0, 1, MPI.DOUBLE, MPI.MAX, ROOT);
        return most[0];
    }

    private void warmUpWithin(byte[] send, byte[] recv, int size, int w) {
        double start = now();
        for (int done = 0; done < w; done += 8) {
            for (int i = 0; i < 8; i++) {
                call(send, recv, size);
            }
            int[] more = {(now() - start) * 1e6 < budgetUs ? 1 : 0};
            world.Bcast(more, 0, 1, MPI.INT, ROOT);
            if (more[0] == 0) {
                return;
            }
        }
    }

    private int iterationsWithin(byte[] send, byte[] recv, int size, int it) {
        double fastest = 1e30;
        for (int i = 0; i < 3; i++) {
            world.Barrier();
            double start = now();
            call(send, recv, size);
            fastest = Math.min(fastest, now() - start);
        }
        double[] f = {fastest};
        world.Bcast(f, 0, 1, MPI.DOUBLE, ROOT);
        double fit = budgetUs / Math.max(f[0] * 1e6, 1e-3);
        return fit < 1 ? 1 : (int) Math.min(fit, it);
    }

    private static byte pattern(int src, long index) {
        return (byte) ((src * 131 + index * 7 + (index >> 8) + 1) & 0xFF);
    }

    /** The double {@code src} contributes at {@code index} of an all-reduce, as peer_bench.c's reduce_term: sums stay exact. */
    private static double reduceTerm(int src, long index) {
        return (double) ((src * 131 + index * 7 + 1) & 0x3FF);
    }

    private boolean reduces() {
        return List.of("allreduce", "reduce", "reduce-scatter", "scan").contains(collective);
    }

    /**
     * An untimed reduction of patterned doubles into a poisoned result; returns this rank's wrong elements. Element
     * i of the result sums the terms at {@code first + i} of the ranks it covers: all of them (at rank * count for
     * reduce-scatter's block), those up to this rank for scan, and nothing is checked off the reduce's root.
     */
    private long checkReduction(int size) {
        int count = size / Double.BYTES;
        boolean scatter = collective.equals("reduce-scatter");
        java.util.Arrays.fill(recvDoubles, 0, count, Double.NaN);
        for (int i = 0; i < count * (scatter ? n : 1); i++) {
            sendDoubles[i] = reduceTerm(rank, i);
        }
        call(null, null, size);
        if (collective.equals("reduce") && rank != ROOT) {
            return 0;
        }
        int first = scatter ? rank * count : 0;
        int ranks = collective.equals("scan") ? rank + 1 : n;
        long wrong = 0;
        for (int i = 0; i < count; i++) {
            double expected = 0;
            for (int r = 0; r < ranks; r++) {
                expected += reduceTerm(r, first + i);
            }
            if (recvDoubles[i] != expected) {
                wrong++;
            }
        }
        return wrong;
    }

    /** One untimed call with patterned input and poisoned output; returns this rank's wrong bytes. */
    private long checkOnce(byte[] send, byte[] recv, int size) {
        if (reduces()) {
            return checkReduction(size);
        }
        int total = size * n;
        java.util.Arrays.fill(recv, 0, total, POISON);
        int inputs = collective.equals("alltoall") ? total : size;
        for (int i = 0; i < inputs; i++) {
            send[i] = pattern(rank, i);
        }
        if (collective.equals("bcast") && rank == ROOT) {
            System.arraycopy(send, 0, recv, 0, size);
        }
        call(send, recv, size);
        long wrong = 0;
        int checked = switch (collective) {
            case "bcast" -> size;
            case "gather" -> rank == ROOT ? total : 0;
            default -> total;
        };
        for (int i = 0; i < checked; i++) {
            int block = size == 0 ? 0 : i / size;
            int offset = size == 0 ? 0 : i % size;
            byte expected = switch (collective) {
                case "bcast" -> pattern(ROOT, i);
                case "alltoall" -> pattern(block, (long) rank * size + offset);
                default -> pattern(block, offset);
            };
            if (recv[i] != expected) {
                wrong++;
            }
        }
        return wrong;
    }

    /** rx and tx bytes of each rail interface in this process's namespace, from /proc/self/net/dev. */
    private long[] counters() throws IOException {
        long[] out = new long[2 * rails.size()];
        boolean[] found = new boolean[rails.size()];
        for (String line : Files.readAllLines(Path.of("/proc/self/net/dev"))) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            int i = rails.indexOf(line.substring(0, colon).strip());
            if (i < 0) {
                continue;
            }
            String[] f = line.substring(colon + 1).strip().split("\\s+");
            out[2 * i] = Long.parseLong(f[0]);
            out[2 * i + 1] = Long.parseLong(f[8]);
            found[i] = true;
        }
        for (int i = 0; i < found.length; i++) {
            if (!found[i]) {
                throw new IOException("rank " + rank + " has no interface " + rails.get(i) + " in its network namespace");
            }
        }
        return out;
    }

    /** The testbed node this process runs in: its rail0 address is 198.18.0.(node+1); -1 without one. */
    private int nodeOfThisProcess() throws IOException {
        NetworkInterface rail0 = NetworkInterface.getByName(rails.get(0));
        if (rail0 == null) {
            return -1;
        }
        Enumeration<InetAddress> addresses = rail0.getInetAddresses();
        while (addresses.hasMoreElements()) {
            InetAddress a = addresses.nextElement();
            if (a instanceof Inet4Address) {
                return (a.getAddress()[3] & 0xFF) - 1;
            }
        }
        return -1;
    }
}
