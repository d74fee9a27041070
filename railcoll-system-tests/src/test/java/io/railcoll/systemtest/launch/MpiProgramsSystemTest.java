package io.railcoll.systemtest.launch;

import io.railcoll.bootstrap.BootstrapSources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Programs written for Open MPI's Java bindings ({@code src/test/resources/mpi-programs}: the bindings' Hello, and
 * collectives, derived types and user ops as their users write them, the examples' Ring, every point-to-point method,
 * non-blocking collectives and topologies) are compiled by the JDK's own {@code javac} against the railcoll-mpi jar
 * alone. Each is correct on any number of ranks (roots and arrays follow the size, decision 0228) and runs unmodified
 * under {@code railcoll run} on 1, 2, 3 and 5 ranks (placements 1, 1+1, 2+1, 3+2), one job per program and placement,
 * every rank's output checked; some also on uneven placements of 5 and 8 ranks. Debian's Open MPI {@code mpirun}
 * (PMIx) and Slurm's {@code srun} start them on 3 ranks.
 */
class MpiProgramsSystemTest {
    private static final String MPIRUN = Files.isExecutable(Path.of("/usr/bin/mpirun.openmpi"))
            ? "/usr/bin/mpirun.openmpi" : "mpirun";
    private static final int RANKS = 3;
    private static final List<String> PROGRAMS = List.of("Hello", "Collectives", "DerivedAndOps", "NonBlocking", "Ring",
            "PointToPoint");
    /** What runs on 1, 2, 3 and 5 ranks ({@link #everyProgramRunsOnOneTwoThreeAndFiveRanks}). */
    private static final List<String> ALL_RANK_COUNTS = List.of("Hello", "Ring", "Collectives", "DerivedAndOps",
            "NonBlocking", "PointToPoint", "Topologies");
    private static final List<String> SOURCES = List.of("Hello", "Collectives", "DerivedAndOps", "NonBlocking", "Fatal",
            "Ring", "PointToPoint", "Topologies");
    /** The checks of the PointToPoint program, each printed once per rank. */
    private static final List<String> P2P_CHECKS = List.of("sendRecv", "sendRecvReplace", "any source", "iSend iRecv",
            "sSend", "rSend", "bSend", "isSend irSend", "probe", "iProbe", "PROC_NULL", "strided", "non-overtaking",
            "mProbe", "imProbe imRecv", "persistent", "truncate");

    /** Turns the JVMs' class-cache log lines off: a rank's output is what the tests read. */
    private static final String QUIET = "-Xlog:aot*=off,cds*=off";

    @TempDir
    static Path dir;
    private static Path classes;
    /** The compiled programs as one jar, what {@code railcoll run} gets: a class cache refuses a class directory. */
    private static Path programs;
    /** The launcher's and the ranks' options that map the class caches; none where a cache could not be made. */
    private static List<String> launcherCache = List.of();
    private static List<String> rankCache = List.of();

    @BeforeAll
    static void compile() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        classes = Files.createDirectories(dir.resolve("classes"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-d", classes.toString(), "-cp", entry("railcoll-mpi")));
        for (String p : SOURCES) {
            try (InputStream in = MpiProgramsSystemTest.class.getResourceAsStream("/mpi-programs/" + p + ".java")) {
                Path file = src.resolve(p + ".java");
                Files.write(file, in.readAllBytes());
                cmd.add(file.toString());
            }
        }
        Launch.Result r = Launch.run(cmd, Map.of(), 120);
        assertEquals(0, r.exitCode(), "javac: " + r.output());
        programs = jar(classes, dir.resolve("programs.jar"));
        makeClassCaches();
    }

    /**
     * The class caches of the {@code railcoll run} launches (JDK 25's AOT cache, as {@code RankStartup} makes for the
     * test jobs, decision 0240): one training job (Collectives on nodes of 2 and 1: shared memory, the rails, most of
     * the bindings) writes one cache for its launcher and one per rank, each made by the JVM itself at its exit
     * ({@code -XX:AOTCacheOutput}), so with exactly the options and class path that {@code railcoll run} gives it;
     * the largest rank cache is kept for every rank. The 33 launches and their 102 ranks then map the classes
     * instead of loading and linking them, 0.5 to 1 s less processor time each on this host. A cache saves time and
     * decides nothing: if the training job fails or writes no cache, every launch runs without, as before, and a
     * JVM given a cache it cannot use ignores it ({@code -XX:AOTMode=auto}, its log lines off).
     */
    private static void makeClassCaches() throws Exception {
        Path work = Files.createDirectories(dir.resolve("class-caches"));
        Path launcher = work.resolve("launcher.aot");
        Launch.Result r;
        try {
            r = railcollRun("2,1", "Collectives", Map.of(), List.of("-XX:AOTCacheOutput=" + launcher, QUIET),
                    List.of("-XX:AOTCacheOutput=" + work.resolve("rank%p.aot"), QUIET));
        } catch (AssertionError | IOException e) { // it ran past its time or could not start
            System.err.println("mpi programs: no class caches (" + e + "); every launch runs without them");
            return;
        }
        if (r.exitCode() != 0) {
            System.err.println("mpi programs: the class caches' training job failed; every launch runs without them:\n"
                    + r.output());
            return;
        }
        if (Files.isRegularFile(launcher)) {
            launcherCache = List.of("-XX:AOTCache=" + launcher, QUIET);
        }
        try (var files = Files.list(work)) {
            files.filter(f -> f.getFileName().toString().matches("rank.*\\.aot"))
                    .max(java.util.Comparator.comparingLong(f -> f.toFile().length()))
                    .ifPresent(rank -> rankCache = List.of("-XX:AOTCache=" + rank, QUIET));
        }
    }

    /** A jar of {@code classes}' files, at {@code jar}. */
    private static Path jar(Path classes, Path jar) throws IOException {
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
             var files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    /**
     * Every program on 1, 2, 3 and 5 ranks: one node, two nodes of one, nodes of 2 and 1, nodes of 3 and 2. Each checks
     * its own results ("rank r name [values] ok"); the lines that do not depend on the rank count are checked here too,
     * and on 3 ranks the values written out in {@link #expectedLines}. The fatal error ends the job on one rank too.
     */
    @Test
    void everyProgramRunsOnOneTwoThreeAndFiveRanks() throws Exception {
        for (String placement : List.of("1", "1,1", "2,1", "3,2")) {
            int[] nodes = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).toArray();
            int ranks = Arrays.stream(nodes).sum();
            for (String program : ALL_RANK_COUNTS) {
                Launch.Result r = railcollRun(placement, program, Map.of());
                check(program, r, ranks, "placement " + placement);
                if (program.equals("Collectives")) {
                    nodeSizes(r, Arrays.stream(nodes).flatMap(n -> java.util.stream.IntStream.generate(() -> n).limit(n))
                            .toArray());
                }
            }
        }
        Launch.Result r = railcollRun("1", "Fatal", Map.of("RAILCOLL_TIMEOUT_MS", "20000"));
        assertTrue(r.exitCode() != 0, r.output());
        assertEquals(1, r.count("railcoll-mpi: rank 0: MPI_ERR_ROOT: bcast on rank 0 of MPI_COMM_WORLD: invalid root: 99"
                + " (the communicator has size 1)"), r.output());
        assertEquals(0, r.count("went on"), r.output());
    }

    /** The point-to-point program on eight ranks over three nodes, besides 1, 2, 3 and 5 above. */
    @Test
    void pointToPointOnEightRanks() throws Exception {
        for (String placement : List.of("4,1,3")) {
            int ranks = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).sum();
            Launch.Result r = railcollRun(placement, "PointToPoint", Map.of());
            assertEquals(0, r.exitCode(), placement + ":\n" + r.output());
            assertEquals(0, r.count("MISMATCH"), r.output());
            for (int rank = 0; rank < ranks; rank++) {
                for (String name : P2P_CHECKS) {
                    String prefix = "rank " + rank + " " + name + " [";
                    assertEquals(1, r.output().lines().filter(l -> l.contains(prefix) && l.endsWith(" ok")).count(),
                            placement + ": expected '" + prefix + "... ok'; output:\n" + r.output());
                }
            }
        }
    }

    /**
     * Under the default handler, MPI.ERRORS_ARE_FATAL, rank 2's bad root ends the job: no exception reaches the
     * program, the rank says what failed and exits with the error class, and the ranks waiting for it are stopped.
     */
    @Test
    void anErrorUnderErrorsAreFatalEndsTheJob() throws Exception {
        Launch.Result r = railcollRun("2,1", "Fatal", Map.of("RAILCOLL_TIMEOUT_MS", "20000"));
        assertTrue(r.exitCode() != 0, r.output());
        assertEquals(1, r.count("railcoll-mpi: rank 2: MPI_ERR_ROOT: bcast on rank 2 of MPI_COMM_WORLD: invalid root: 99"
                + " (the communicator has size 3) (in bcast on MPI_COMM_WORLD; the handler is MPI.ERRORS_ARE_FATAL"), r.output());
        assertEquals(0, r.count("caught"), r.output());
        assertEquals(0, r.count("rank 2 went on"), r.output());
    }

    @Test
    void openMpisMpirunRunsThemUnmodified() throws Exception {
        assumeTrue(Launch.output(MPIRUN, "--version").contains("open-mpi.org"),
                "skipped: Open MPI's mpirun is not installed or did not answer --version (apt-get install openmpi-bin)");
        assumeTrue(BootstrapSources.pmixLibrary(System.getenv()).isPresent(),
                "skipped: libpmix is not installed (apt-get install libpmix2)");
        String cp = String.join(File.pathSeparator, classes.toString(), entry("railcoll-mpi"), entry("railcoll-core"));
        for (String program : PROGRAMS) {
            List<String> cmd = new ArrayList<>(List.of(MPIRUN, "--allow-run-as-root", "--oversubscribe", "--bind-to",
                    "none", "-np", Integer.toString(RANKS), java(), "--enable-native-access=ALL-UNNAMED",
                    "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp, program));
            Launch.Result r = Launch.run(cmd, Map.of(), 300);
            check(program, r);
            if (program.equals("Collectives")) {
                nodeSizes(r, RANKS, RANKS, RANKS); // one host: splitType(TYPE_SHARED) holds every rank
            }
        }
    }

    /**
     * Slurm's {@code srun --mpi=pmix} (Debian's Slurm, {@link LocalSlurm} on this machine) starts the same compiled
     * programs on 3 ranks with the same class path as under mpirun and no railcoll setting; {@code MPI.Init} finds
     * its place through PMIx as it does there.
     */
    @Test
    void slurmsSrunRunsThemUnmodified() throws Exception {
        LocalSlurm slurm = LocalSlurm.start();
        assumeTrue(slurm != null, () -> "skipped: cannot run Slurm on this machine: " + LocalSlurm.whyNot);
        try {
            assumeTrue(slurm.mpiPlugins().contains("pmix"),
                    "skipped: this Slurm offers no pmix plugin (srun --mpi=list): " + slurm.mpiPlugins());
            String cp = String.join(File.pathSeparator, classes.toString(), entry("railcoll-mpi"), entry("railcoll-core"));
            for (String program : PROGRAMS) {
                List<String> cmd = List.of("srun", "-n", Integer.toString(RANKS), "--mpi=pmix", "--time=5",
                        "--kill-on-bad-exit=1", java(), "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1", "-cp", cp, program);
                Launch.Result r = Launch.run(cmd, slurm.environment(), 300);
                check(program, r);
                if (program.equals("Collectives")) {
                    nodeSizes(r, RANKS, RANKS, RANKS); // one Slurm node: splitType(TYPE_SHARED) holds every rank
                }
            }
        } finally {
            slurm.close();
        }
    }

    /**
     * NonBlocking on 8 ranks over nodes of 3, 1 and 4, besides 1, 2, 3 and 5 above; every rank prints the iAllReduce
     * overlap's lines once.
     */
    @Test
    void nonBlockingRunsOnEightRanks() throws Exception {
        for (String placement : List.of("3,1,4")) {
            int ranks = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).sum();
            check("NonBlocking", railcollRun(placement, "NonBlocking", Map.of()), ranks, "placement " + placement);
        }
    }

    /**
     * Topologies (Cartesian, graph, distributed graphs, each with every neighbourhood collective blocking and not, and
     * createGroup by the even ranks alone) checks itself; here on 5 ranks over nodes of 2, 1 and 2, besides the
     * placements above.
     */
    @Test
    void topologiesRunOnUnevenPlacements() throws Exception {
        for (String placement : List.of("2,1,2")) {
            int ranks = Arrays.stream(placement.split(",")).mapToInt(Integer::parseInt).sum();
            Launch.Result r = railcollRun(placement, "Topologies", Map.of());
            assertEquals(0, r.exitCode(), "placement " + placement + ":\n" + r.output());
            checkSelf("Topologies", r, ranks);
        }
    }

    /** The size each rank printed of its {@code splitType(Comm.TYPE_SHARED)} communicator. */
    private static void nodeSizes(Launch.Result r, int... sizes) {
        for (int rank = 0; rank < sizes.length; rank++) {
            assertEquals(1, r.count("rank " + rank + " node size " + sizes[rank]), r.output());
        }
    }

    private static void check(String program, Launch.Result r) {
        check(program, r, RANKS, RANKS + " ranks");
    }

    /** {@code program}'s job on {@code ranks} ranks ({@code where}): exit 0, its own checks, the lines expected here. */
    private static void check(String program, Launch.Result r, int ranks, String where) {
        assertEquals(0, r.exitCode(), program + " on " + where + ":\n" + r.output());
        List<String> expected = new ArrayList<>();
        for (int rank = 0; rank < ranks; rank++) {
            expected.addAll(expectedLines(program, rank, ranks));
        }
        for (String line : expected) {
            assertEquals(1, r.count(line), program + " on " + where + ": expected once: '" + line + "'; output:\n"
                    + r.output());
        }
        checkSelf(program, r, ranks);
        if (program.equals("Collectives")) {
            checkPi(r, ranks);
        }
    }

    /** Collectives' pi: the same bits on every rank, to the midpoint rule's accuracy. */
    private static void checkPi(Launch.Result r, int ranks) {
        List<String> pi = r.output().lines().filter(l -> l.contains(" pi ")).map(l -> l.replaceAll(".* pi ", ""))
                .distinct().toList();
        assertEquals(1, pi.size(), r.output());
        assertTrue(pi.getFirst().startsWith("3.1415926"), r.output());
        assertEquals(ranks, r.count(" pi 3.1415926"), r.output());
    }

    /** The lines rank {@code rank} of {@code ranks} prints, each once (Collectives' written-out values on 3 ranks only). */
    private static List<String> expectedLines(String program, int rank, int ranks) {
        return switch (program) {
            case "Hello" -> List.of("Hello world from rank " + rank + " of " + ranks);
            case "Ring" -> {
                List<String> lines = new ArrayList<>(List.of("Process " + rank + " exiting"));
                if (rank == 0) {
                    lines.add("Process 0 sending 10 to rank " + 1 % ranks + " (" + ranks + " processes in ring)");
                    for (int v = 9; v >= 0; v--) {
                        lines.add("Process 0 decremented value: " + v);
                    }
                }
                yield lines;
            }
            case "PointToPoint", "Topologies" -> List.of();
            case "Collectives" -> {
                if (ranks != RANKS) {
                    yield List.of(); // its own checks (checkSelf), pi and the node sizes
                }
                // On 3 ranks, the values written out here as well as computed by the program.
                List<String> lines = new ArrayList<>(List.of(
                        "rank " + rank + " bcast [" + (rank == 1 ? "[7, 8, 9, 10, 11]" : "[7, 8, 9, 0, 0]") + "] ok",
                        "rank " + rank + " int sum [[3, 30, 0]] ok",
                        "rank " + rank + " double max [[2.5, 0.0]] ok",
                        "rank " + rank + " buffer sum [[300.0, 303.0, 306.0, 309.0]] ok",
                        "rank " + rank + " allGather [[4294967296, 8589934592, 17179869184]] ok",
                        "rank " + rank + " allToAll [[" + rank + ", " + (10 + rank) + ", " + (20 + rank) + "]] ok",
                        "rank " + rank + " threads [[3, " + 25 * RANKS + ", " + 25 * RANKS + "]] ok",
                        "rank " + rank + " allGatherv [[0, 10, 11, 20, 21, 22]] ok",
                        "rank " + rank + " allGatherv in place [[0, 10, 11, 20, 21, 22]] ok",
                        "rank " + rank + " allToAllv [[" + rank + ", " + (10 + rank) + ", " + (10 + rank) + ", "
                                + (20 + rank) + ", " + (20 + rank) + ", " + (20 + rank) + "]] ok"));
                if (rank == RANKS - 1) {
                    lines.add("rank 2 gatherv [[0, -1, -1, 100, 101, -1, 200, 201, 202]] ok");
                    lines.add("rank 2 reduce [[6, 5]] ok");   // (1+2+3, 0+1+4) at root 2
                    lines.add("rank 2 reduceScatter [[309, 312, 315]] ok");   // elements 3..5: 3k + 300
                }
                // PROD of r+2 over the ranks below, in place; rank 0 keeps its own 2
                lines.add("rank " + rank + " exScan [[" + new long[] {2, 2, 6}[rank] + "]] ok");
                lines.add("rank " + rank + " scatterv [" + Arrays.toString(java.util.stream.IntStream.rangeClosed(0, rank)
                        .map(j -> 100 * rank + j).toArray()) + "] ok");
                if (rank == 0) {
                    lines.add("rank 0 gather [[0, 0, 1, -1, 2, -2]] ok");
                }
                yield lines;
            }
            case "DerivedAndOps" -> {
                double[] m = new double[12];
                for (int i = 0; i < 12; i++) {
                    m[i] = rank == 0 || i % 4 == 1 && i < 12 ? i : 0;
                }
                // the product M0 * M1 * M2 of [[r+2, r+1], [0, 1]], in rank order
                long a = 1;
                long b = 0;
                for (int r = 0; r < ranks; r++) {
                    b = a * (r + 1) + b;
                    a = a * (r + 2);
                }
                // [[a, b], [0, c]] products in rank order, as 3 ints: (r+1, r+2, r+3) and (1, r, 2)
                long[] t1 = {1, 0, 1};
                long[] t2 = {1, 0, 1};
                for (int r = 0; r < ranks; r++) {
                    t1 = triangular(t1, new long[] {r + 1, r + 2, r + 3});
                    t2 = triangular(t2, new long[] {1, r, 2});
                }
                // MAXLOC of (7r mod size, r): the largest value, at the lowest rank that has it
                int maxAt = 0;
                for (int r = 1; r < ranks; r++) {
                    maxAt = r * 7 % ranks > maxAt * 7 % ranks ? r : maxAt;
                }
                yield List.of("rank " + rank + " column " + Arrays.toString(m),
                        "rank " + rank + " triangular [" + t1[0] + ", " + t1[1] + ", " + t1[2] + ", " + t2[0] + ", " + t2[1]
                                + ", " + t2[2] + "]",
                        "rank " + rank + " columns " + Arrays.toString(java.util.stream.IntStream.range(0, 3 * ranks)
                                .mapToDouble(i -> i / 3).toArray()),
                        "rank " + rank + " product [" + a + ", " + b + "]",
                        "rank " + rank + " maxloc " + (double) (maxAt * 7 % ranks) + " at " + maxAt,
                        "rank " + rank + " error class 8 root true");
            }
            case "NonBlocking" -> List.of("rank " + rank + " overlap work 64 chunks ok",
                    "rank " + rank + " overlap request null true");
            default -> throw new IllegalArgumentException(program);
        };
    }

    /** The checks {@code program} makes against values it computes sequentially: one "ok" line each, no mismatch. */
    private static void checkSelf(String program, Launch.Result r, int ranks) {
        assertEquals(0, r.count("MISMATCH"), program + ":\n" + r.output());
        for (int rank = 0; rank < ranks; rank++) {
            for (String name : selfChecks(program, rank, ranks)) {
                String prefix = "rank " + rank + " " + name + " [";
                assertEquals(1, r.output().lines().filter(l -> l.contains(prefix) && l.endsWith(" ok")).count(),
                        program + " on " + ranks + " ranks: expected one checked line '" + prefix + "... ok'; output:\n"
                                + r.output());
            }
        }
    }

    /** The names of the checks {@code program}'s rank {@code rank} of {@code ranks} makes and prints ("rank r name [values] ok"). */
    private static List<String> selfChecks(String program, int rank, int ranks) {
        int last = ranks - 1;
        List<String> names = new ArrayList<>();
        switch (program) {
            case "Collectives" -> {
                names.addAll(List.of("bcast", "int sum", "double max", "buffer sum", "allGather", "allGatherv",
                        "allGatherv in place", "allToAllv", "allToAll", "threads", "reduce in place", "scan", "exScan", "reduceScatter", "reduceScatterBlock", "scatter",
                        "scatter in place", "scatterv", "scatterv direct", "split", "split allGather", "split allReduce",
                        "split bcast", "split scan", "split compare", "dup of split", "undefined", "dup", "splitType",
                        "splitType collectives", "create", "free"));
                if (rank == last) {
                    names.addAll(List.of("reduce", "gatherv"));
                }
                if (rank == 0) {
                    names.add("gather");
                }
            }
            case "NonBlocking" -> {
                names.addAll(List.of("overlap", "iBcast", "iAllGather", "iAllGather in place", "iAllToAll",
                        "iReduce in place", "iReduceScatterBlock", "iScan", "iExScan", "iScatter", "waitAny",
                        "waitAny after", "waitSome", "waitSome count", "testAll", "user op", "split iAllReduce", "allToAllw",
                        "pack", "attributes", "iScatterv", "iAllToAllv", "iAllToAllw", "wrong root form"));
                if (rank == 0) {
                    names.add("iGather");
                }
                if (rank == last) {
                    names.addAll(List.of("iReduce", "iGatherv"));
                }
            }
            case "DerivedAndOps" -> {
                names.addAll(List.of("scan product", "exScan product", "scan triangular", "exScan triangular",
                        "reduceScatterBlock product", "reduceScatter triangular"));
                if (rank == 1) {
                    names.add("reduce product");
                }
                if (rank == last) {
                    names.add("reduce triangular");
                }
            }
            case "PointToPoint" -> names.addAll(P2P_CHECKS);
            case "Topologies" -> {
                for (String topology : List.of("ring", "grid", "graph", "adjacent", "distributed")) {
                    for (String call : List.of("neighborAllGather", "neighborAllToAll", "neighborAllGatherv",
                            "neighborAllToAllv", "iNeighborAllGather", "iNeighborAllToAll", "iNeighborAllGatherv",
                            "iNeighborAllToAllv")) {
                        names.add(topology + " " + call);
                    }
                }
                names.addAll(List.of("graph neighbours", "distributed sources"));
                if (rank % 2 == 0) {
                    names.add("createGroup");
                }
            }
            default -> {
            }
        }
        return names;
    }

    private static long[] triangular(long[] x, long[] y) {
        return new long[] {x[0] * y[0], x[0] * y[1] + x[1] * y[2], x[2] * y[2]};
    }

    /** The class path entry (jar or class directory) of a railcoll module in this JVM's class path. */
    private static String entry(String module) throws IOException {
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(e);
            String name = p.getFileName().toString();
            if (name.startsWith(module + "-") && name.endsWith(".jar")
                    || name.equals("classes") && p.getParent().getParent().getFileName().toString().equals(module)) {
                return e;
            }
        }
        throw new IOException(module + " is not on the test's class path: " + System.getProperty("java.class.path"));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** This JVM's class path without the test classes: what bin/railcoll runs on. */
    private static String railcollClassPath() {
        List<String> keep = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.endsWith("test-classes")) {
                keep.add(e);
            }
        }
        return String.join(File.pathSeparator, keep);
    }

    /**
     * {@code program} of the mpi programs under {@code bin/railcoll run} on {@code placement}, with {@code env}. The
     * launcher and every rank run C1 only with the serial collector, as under mpirun above: these short programs
     * then start and finish about a third sooner on this shared host (decision 0228), and what they check does not
     * depend on the JIT.
     */
    private static Launch.Result railcollRun(String placement, String program, Map<String, String> env)
            throws Exception {
        return railcollRun(placement, program, env, launcherCache, rankCache);
    }

    /** The same, with {@code launcherOptions} for the launcher's JVM and {@code rankOptions} for every rank's. */
    private static Launch.Result railcollRun(String placement, String program, Map<String, String> env,
                                             List<String> launcherOptions, List<String> rankOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        cmd.addAll(launcherOptions);
        cmd.addAll(List.of("-cp", railcollClassPath(), "io.railcoll.cli.RailcollCli", "run",
                "--jvm-option=-XX:TieredStopAtLevel=1", "--jvm-option=-XX:+UseSerialGC"));
        rankOptions.forEach(o -> cmd.add("--jvm-option=" + o));
        cmd.addAll(List.of("--placement", placement, "--classpath", programs.toString(), program));
        return Launch.run(cmd, env, 300);
    }
}
