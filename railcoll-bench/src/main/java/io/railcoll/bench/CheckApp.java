package io.railcoll.bench;

import io.railcoll.Communicator;
import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.launcher.RankApp;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs many collective cases in one job and checks every result byte for byte on every rank; a wrong byte fails
 * the rank (and so the job) naming the case. Arguments:
 * {@code collectives=allgather,gather algorithms=all|auto|id,... sizes=0,1,7 roots=0,last
 * buffers=array,segment,direct,mixed} ({@code mixed}: even ranks send from native memory into a byte[], odd ranks
 * the other way round, so every kind of pair meets). One job checks every (collective, algorithm, size, root,
 * buffer kind) so JVM start-up is paid once. At the end every rank prints a {@code SINGLE-COPY} line with its
 * {@link Communicator#singleCopyCounts()}. Each all-gather case also checks the in-place form (decision 0220).
 */
public final class CheckApp implements RankApp {

    @Override
    public void run(Communicator comm, List<String> args) {
        Options o = Options.parse(args);
        int cases = 0;
        int seed = 1;
        for (Collective c : o.collectives) {
            for (String algorithm : algorithmsFor(c, o.algorithms, comm)) {
                if (algorithm != null) {
                    comm.forceAlgorithm(algorithm);
                } else {
                    comm.clearForcedAlgorithm(c);
                }
                for (long size : o.sizes) {
                    for (int root : roots(c, o.roots, comm.size())) {
                        for (String kind : o.buffers) {
                            seed++;
                            runCase(comm, c, algorithm, size, root, kind, seed);
                            cases++;
                        }
                    }
                }
            }
            comm.clearForcedAlgorithm(c);
        }
        var sc = comm.singleCopyCounts();
        System.out.println("SINGLE-COPY rank " + comm.rank() + " sent " + sc.putsSent() + " puts " + sc.bytesSent()
                + " bytes pulled " + sc.putsPulled() + " puts " + sc.bytesPulled() + " bytes node transfers " + sc.nodeTransfers());
        if (comm.rank() == 0) {
            System.out.println("CHECKED " + cases + " cases on " + comm.size() + " ranks ("
                    + comm.placement().describe() + ", " + comm.rails() + " rails)");
        }
    }

    private static void runCase(Communicator comm, Collective c, String algorithm, long b, int root, String kind, int seed) {
        int n = comm.size();
        int rank = comm.rank();
        try (Arena arena = Arena.ofShared()) {
            long sendBytes = c.sendBytes(b, n);
            long recvBytes = c == Collective.BROADCAST ? b : (c == Collective.GATHER && rank != root ? 0 : c.recvBytes(b, n, rank, root));
            boolean flip = kind.equals("mixed") && rank % 2 == 1;
            MemorySegment send = buffer(kind.equals("mixed") ? (flip ? "array" : "segment") : kind, sendBytes, arena);
            MemorySegment recv = buffer(kind.equals("mixed") ? (flip ? "segment" : "array") : kind, recvBytes, arena);
            Patterns.fillSend(c, seed, rank, n, b, c == Collective.BROADCAST ? recv : send);
            if (c == Collective.BROADCAST && rank != root) {
                recv.fill((byte) 0x5a);
            }
            switch (c) {
                case BARRIER -> comm.barrier();
                case BROADCAST -> comm.broadcast(recv, root);
                case GATHER -> comm.gather(send, rank == root ? recv : null, root);
                case ALLGATHER -> comm.allgather(send, recv);
                case ALLTOALL -> comm.alltoall(send, recv);
                case SCATTER -> comm.scatter(send, recv, root);
                default -> throw new IllegalArgumentException(c.id() + " is not checked here");
            }
            String bad = Patterns.verify(c, seed, rank, n, b, root, recv);
            if (bad != null) {
                throw new AssertionError("rank " + rank + ": " + c.id() + " with "
                        + (algorithm == null ? "auto (" + comm.selectedAlgorithm(c, b, root) + ")" : algorithm)
                        + ", " + b + "-byte blocks, root " + root + ", " + kind + " buffers: " + bad);
            }
            if (c == Collective.ALLGATHER) {
                checkInPlace(comm, algorithm, b, seed, kind.equals("mixed") ? (flip ? "segment" : "array") : kind, arena);
            }
        }
    }

    /**
     * The in-place all-gather of the same case, blocking and not (decision 0220): this rank's block written at its
     * place in a buffer whose other bytes hold junk, which must come back holding every rank's block, its own
     * untouched.
     */
    private static void checkInPlace(Communicator comm, String algorithm, long b, int seed, String kind, Arena arena) {
        int n = comm.size();
        int rank = comm.rank();
        for (boolean nonBlocking : new boolean[] {false, true}) {
            MemorySegment buffer = buffer(kind, b * n, arena);
            buffer.fill((byte) 0x5a);
            Patterns.fillSend(Collective.ALLGATHER, seed, rank, n, b, buffer.asSlice(rank * b, b));
            if (nonBlocking) {
                comm.iallgather(buffer, b).await();
            } else {
                comm.allgather(buffer, b);
            }
            String bad = Patterns.verify(Collective.ALLGATHER, seed, rank, n, b, 0, buffer);
            if (bad != null) {
                throw new AssertionError("rank " + rank + ": " + (nonBlocking ? "iallgather" : "allgather")
                        + " in place with " + (algorithm == null ? "auto (" + comm.selectedAlgorithm(Collective.ALLGATHER,
                        b, 0) + ")" : algorithm) + ", " + b + "-byte blocks, " + kind + " buffer: " + bad);
            }
        }
    }

    private static MemorySegment buffer(String kind, long bytes, Arena arena) {
        return switch (kind) {
            case "array" -> MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
            case "segment" -> arena.allocate(Math.max(bytes, 1)).asSlice(0, bytes);
            case "direct" -> MemorySegment.ofBuffer(java.nio.ByteBuffer.allocateDirect(Math.toIntExact(bytes)));
            default -> throw new IllegalArgumentException("unknown buffer kind " + kind);
        };
    }

    private static List<String> algorithmsFor(Collective c, List<String> requested, Communicator comm) {
        List<String> out = new ArrayList<>();
        for (String r : requested) {
            if (r.equals("auto")) {
                out.add(null);
            } else if (r.equals("all")) {
                for (Algorithm a : AlgorithmCatalog.standard().forCollective(c)) {
                    if (Candidates.runnable(a, new Shape(c, comm.placement(), Math.max(1, comm.rails()), 1, 0), System.getenv())) {
                        out.add(a.id());
                    }
                }
            } else if (r.startsWith(c.id() + ".")) {
                out.add(r);
            }
        }
        return out;
    }

    private static List<Integer> roots(Collective c, List<String> roots, int size) {
        if (!c.hasRoot()) {
            return List.of(0);
        }
        List<Integer> out = new ArrayList<>();
        for (String r : roots) {
            int v = switch (r) {
                case "last" -> size - 1;
                case "middle" -> size / 2;
                default -> Integer.parseInt(r);
            };
            if (v < size && !out.contains(v)) {
                out.add(v);
            }
        }
        return out;
    }

    private record Options(List<Collective> collectives, List<String> algorithms, long[] sizes, List<String> roots,
                           List<String> buffers) {
        static Options parse(List<String> args) {
            // The reductions need typed data and operators: the system tests check them (AllreduceApps).
            // The v-variants need count vectors this check does not generate; VariableSystemTest checks them.
            List<Collective> collectives = Arrays.stream(Collective.values())
                    .filter(c -> !c.reduces() && !c.variable()).toList();
            List<String> algorithms = List.of("all");
            long[] sizes = {0, 1, 7, 1023, 1025, 65537};
            List<String> roots = List.of("0", "last");
            List<String> buffers = List.of("array");
            for (String a : args) {
                int eq = a.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("expected key=value, got " + a);
                }
                String k = a.substring(0, eq);
                String[] v = a.substring(eq + 1).split(",");
                switch (k) {
                    case "collectives" -> {
                        collectives = Arrays.stream(v).map(Collective::fromId).toList();
                        for (Collective c : collectives) {
                            if (c.reduces()) {
                                throw new IllegalArgumentException(c.id() + " combines typed data, which this check"
                                        + " does not generate; the system tests check it");
                            }
                            if (c.variable()) {
                                throw new IllegalArgumentException(c.id() + " takes per-rank counts, which this check"
                                        + " does not generate; VariableSystemTest checks it");
                            }
                        }
                    }
                    case "algorithms" -> algorithms = List.of(v);
                    case "sizes" -> sizes = Arrays.stream(v).mapToLong(Long::parseLong).toArray();
                    case "roots" -> roots = List.of(v);
                    case "buffers" -> buffers = List.of(v);
                    default -> throw new IllegalArgumentException("unknown option " + k);
                }
            }
            return new Options(collectives, algorithms, sizes, roots, buffers);
        }
    }
}
