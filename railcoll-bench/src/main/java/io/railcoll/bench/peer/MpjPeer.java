package io.railcoll.bench.peer;

import io.railcoll.bench.TimedReduction;
import io.railcoll.bench.report.Series;
import io.railcoll.schedule.Collective;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * MPJ Express (the Java MPI people use today; Debian's {@code libmpj-java}, 0.44) as a peer of a railcoll sweep: builds
 * {@code MpjBench.java} (shipped as a resource; it times each call the way {@code peer_bench.c} and railcoll do) with
 * this JVM's {@code javac} against MPJ's own {@code mpj.jar}, and runs it with MPJ's launcher:
 * <ul>
 *   <li>on one node, the {@code multicore} device: every rank a thread of one JVM ({@link #runOnThisHost});</li>
 *   <li>across the testbed's nodes, the {@code niodev} device: one MPJ daemon per node namespace, started by
 *       {@link #runOnTestbed}, each starting its node's ranks as JVMs there ({@code -machinesfile} lists the nodes'
 *       rail-0 addresses, and MPJ gives each the same number of ranks, in rank order).</li>
 * </ul>
 *
 * <p><b>Private home.</b> Debian's package does not start as installed ({@code NoClassDefFoundError:
 * org/apache/log4j/Layout}): its jars name log4j 1.2, commons-cli, commons-io and commons-codec in their manifests'
 * {@code Class-Path}, relative to MPJ's {@code lib} folder, where Debian put none of them. Nothing under /usr is
 * changed: MPJ's jars are copied (not linked: the JVM resolves a jar's {@code Class-Path} against its real location)
 * into {@code <cache>/mpj-home/lib} beside links to Debian's four jars, {@code conf} links to MPJ's, and that folder is
 * the launcher's {@code MPJ_HOME}.
 *
 * <p><b>Addresses.</b> niodev tells its peers the address its host name resolves to, and the testbed's namespaces all
 * share this machine's name (127.0.0.1 here): every daemon and the launcher get a UTS namespace whose host name is
 * their node's rail-0 address, so MPJ's bytes go over rail 0. niodev has one address per process, so it uses one rail
 * however many the testbed has.
 *
 * <p>One caller at a time. Processes are waited for, or killed at the deadline, before a run returns.
 */
public final class MpjPeer {
    public static final String NAME = "mpj";

    /**
     * Whether MpjBench times {@code c}: what peer_bench.c times but exscan, which MPJ Express 0.44 does not have, and
     * reduce-scatter, whose {@code Reduce_scatter} returns wrong sums there (3 ranks, 2 doubles each, rank r sending
     * {@code 100r + i}: rank 0 got 200, 203 and rank 1 got 506, 509 where 300, 303 and 306, 309 are right).
     */
    public static boolean runs(Collective c) {
        return TimedReduction.peersRun(c) && c != Collective.EXSCAN && c != Collective.REDUCE_SCATTER;
    }
    public static final String NOT_INSTALLED = "MPJ Express not installed: apt-get install -y libmpj-java";
    static final String SOURCE_RESOURCE = "MpjBench.java";
    /** The daemon's port (MPJ's {@code mpjexpress.mpjdaemon.port.1}); each node namespace has its own port space. */
    static final int DAEMON_PORT = 40055;
    private static final Duration DAEMON_START = Duration.ofSeconds(60);
    private static final List<String> DEBIAN_DEPENDENCIES = List.of("log4j-1.2.jar", "commons-cli.jar", "commons-io.jar",
            "commons-codec.jar");

    private final Path mpjHome;
    private final Path dependencies;
    private final Path cacheDir;
    private final String version;

    private MpjPeer(Path mpjHome, Path dependencies, Path cacheDir, String version) {
        this.mpjHome = mpjHome;
        this.dependencies = dependencies;
        this.cacheDir = cacheDir;
        this.version = version;
    }

    /**
     * Finds MPJ Express ({@code $MPJ_HOME}, else Debian's {@code /usr/share/mpj}) and Debian's jars it needs
     * ({@code /usr/share/java}).
     *
     * @throws PeerException saying what is missing and how to install it
     */
    public static MpjPeer locate() {
        String env = System.getenv("MPJ_HOME");
        Path home = Path.of(env != null && !env.isBlank() ? env : "/usr/share/mpj");
        Path deps = Path.of("/usr/share/java");
        for (String jar : List.of("mpj.jar", "starter.jar", "daemon.jar")) {
            if (!Files.isRegularFile(home.resolve("lib").resolve(jar))) {
                throw new PeerException(NOT_INSTALLED + " (no " + home.resolve("lib").resolve(jar) + ")");
            }
        }
        for (String jar : DEBIAN_DEPENDENCIES) {
            if (!Files.isRegularFile(deps.resolve(jar))) {
                throw new PeerException("MPJ Express needs " + deps.resolve(jar) + ": apt-get install -y liblog4j1.2-java "
                        + "libcommons-cli-java libcommons-io-java libcommons-codec-java");
            }
        }
        return new MpjPeer(home, deps, OpenMpiPeer.defaultCacheDir(), versionOf(home));
    }

    /** {@code mpjexpress.version} of MPJ's configuration, or "unknown version". */
    private static String versionOf(Path home) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(home.resolve("conf").resolve("mpjexpress.conf"))) {
            p.load(in);
        } catch (IOException e) {
            return "unknown version";
        }
        return p.getProperty("mpjexpress.version", "unknown version").strip();
    }

    private static void refuseUnlessRuns(PeerRun run) {
        if (!runs(run.collective())) {
            throw new IllegalArgumentException("the mpj peer cannot time " + run.collective().id() + ": MPJ Express"
                    + " 0.44 has no Exscan, and its Reduce_scatter returns wrong sums");
        }
    }

    /**
     * MpjBench's arguments: peer_bench's without the figure added to a barrier loop, which MpjBench does not measure
     * (decision 0232: its points have the OSU figure alone).
     */
    private static List<String> mpjArgs(PeerRun run) {
        return run.toBuilder().addedToBarrierBelowBytes(0).build().programArgs();
    }

    /** For the report: {@code MPJ Express 0.44, /usr/share/mpj (private MPJ_HOME ...)}. */
    public String identity() {
        return "MPJ Express " + version + ", " + mpjHome + " (run from the private MPJ_HOME " + privateHomePath()
                + ", with Debian's log4j 1.2, commons-cli, commons-io, commons-codec linked into its lib)";
    }

    /** The multicore device on this host: every rank a thread of one JVM. */
    public PeerResults runOnThisHost(PeerRun run) {
        refuseUnlessRuns(run);
        Path home = privateHome();
        Path classes = build(home);
        List<String> cmd = new ArrayList<>(List.of(java(), "-jar", home.resolve("lib/starter.jar").toString(),
                "-np", Integer.toString(run.ranks()), "-dev", "multicore", "-wdir", classes.toString(), "MpjBench"));
        cmd.addAll(mpjArgs(run));
        PeerProcess.Output out = PeerProcess.run(cmd, environment(home), classes, run.timeout());
        return results(run, out, cmd, "multicore device (threads of one JVM)");
    }

    /**
     * The niodev device across the testbed: a daemon in each node's namespace (node 0's only with {@code loopback}, a
     * control whose bytes must avoid the rails), MPJ's launcher in node 0's. {@code nodePrefixes.get(n)} runs a command
     * in node n's namespace; {@code nodeAddresses.get(n)} is node n's rail-0 address.
     */
    public PeerResults runOnTestbed(PeerRun run, List<List<String>> nodePrefixes, List<String> nodeAddresses,
                                    boolean loopback) {
        refuseUnlessRuns(run);
        Path home = privateHome();
        Path classes = build(home);
        int nodes = loopback ? 1 : nodePrefixes.size();
        List<Process> daemons = new ArrayList<>();
        try {
            for (int n = 0; n < nodes; n++) {
                daemons.add(startDaemon(home, nodePrefixes.get(n), nodeAddresses.get(n)));
            }
            for (int n = 0; n < nodes; n++) {
                awaitDaemon(nodePrefixes.get(n), nodeAddresses.get(n), daemons.get(n));
            }
            Path machines = Files.createTempFile(cacheDir, "mpj-machines-", ".txt");
            try {
                Files.write(machines, nodeAddresses.subList(0, nodes));
                List<String> cmd = new ArrayList<>(nodePrefixes.get(0));
                StringBuilder line = new StringBuilder("hostname " + nodeAddresses.get(0) + " && exec " + java() + " -jar "
                        + home.resolve("lib/starter.jar") + " -np " + run.ranks() + " -dev niodev -machinesfile " + machines
                        + " -wdir " + classes + " MpjBench");
                for (String a : mpjArgs(run)) {
                    line.append(' ').append(a);
                }
                cmd.addAll(List.of("unshare", "--uts", "sh", "-c", line.toString()));
                PeerProcess.Output out = PeerProcess.run(cmd, environment(home), classes, run.timeout());
                return results(run, out, cmd, loopback ? "niodev, every rank in node 0 (control)"
                        : "niodev over rail0 (one rail: one address per process)");
            } finally {
                Files.deleteIfExists(machines);
            }
        } catch (IOException e) {
            throw new PeerException("MPJ Express on the testbed: " + e.getMessage(), e);
        } finally {
            daemons.forEach(PeerProcess::killTree);
        }
    }

    private Process startDaemon(Path home, List<String> prefix, String address) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of("unshare", "--uts", "sh", "-c", "hostname " + address + " && exec " + java() + " -cp "
                + home.resolve("lib/daemon.jar") + " runtime.daemon.MPJDaemon " + DAEMON_PORT));
        Path log = Files.createTempFile(cacheDir, "mpj-daemon-", ".log");
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        b.environment().putAll(environment(home));
        Process p = b.start();
        log.toFile().deleteOnExit();
        return p;
    }

    /** Polls the daemon's port from inside its namespace until it accepts, within {@link #DAEMON_START}. */
    private static void awaitDaemon(List<String> prefix, String address, Process daemon) {
        Instant deadline = Instant.now().plus(DAEMON_START);
        while (Instant.now().isBefore(deadline)) {
            if (!daemon.isAlive()) {
                throw new PeerException("the MPJ Express daemon for " + address + " exited with status " + daemon.exitValue());
            }
            List<String> probe = new ArrayList<>(prefix);
            probe.addAll(List.of("bash", "-c", "exec 3<>/dev/tcp/" + address + "/" + DAEMON_PORT));
            PeerProcess.Output out = PeerProcess.run(probe, Map.of(), null, Duration.ofSeconds(10));
            if (out.exitCode() == 0) {
                return;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new PeerException("interrupted while waiting for the MPJ Express daemon at " + address, e);
            }
        }
        throw new PeerException("the MPJ Express daemon at " + address + ":" + DAEMON_PORT + " did not accept connections within "
                + DAEMON_START.toSeconds() + " s");
    }

    private PeerResults results(PeerRun run, PeerProcess.Output out, List<String> cmd, String engine) {
        PeerOutput parsed = PeerOutput.parse(out.stdout());
        String what = run.collective().id() + " on " + run.ranks() + " ranks";
        if (!parsed.failedChecks().isEmpty()) {
            throw new PeerException("MPJ Express " + what + " delivered wrong bytes at sizes "
                    + parsed.failedChecks().stream().map(c -> Long.toString(c.sizeBytes())).toList());
        }
        if (out.exitCode() != 0 || !parsed.complete()) {
            throw new PeerException("MPJ Express " + what + " failed (exit status " + out.exitCode()
                    + (parsed.complete() ? "" : ", output incomplete") + "): " + String.join(" ", cmd)
                    + "\nstdout:\n" + PeerProcess.tail(out.stdout()) + "\nstderr:\n" + PeerProcess.tail(out.stderr()));
        }
        Series series = Series.of(run.collective(), NAME, run.placement(), run.rails(), engine);
        return new PeerResults(NAME, identity(), parsed.results(series), nodeMapped(parsed), List.of());
    }

    /**
     * The rail lines with each rank's number replaced by the first rank of the node it really ran on (from the
     * program's {@code node} lines), so the ledger, which keeps each node's first rank, reads every node once.
     */
    private static List<String> nodeMapped(PeerOutput parsed) {
        Map<Integer, Integer> nodeOfRank = new HashMap<>();
        for (String line : parsed.otherLines()) {
            String[] f = line.strip().split(",");
            if (f.length == 3 && f[0].equals("node")) {
                nodeOfRank.put(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
            }
        }
        return RankToNode.remap(parsed.railLines(), nodeOfRank);
    }

    private String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private Map<String, String> environment(Path home) {
        Map<String, String> env = new HashMap<>();
        env.put("MPJ_HOME", home.toString());
        // MPJ's launchers start "java" from the PATH: make it this JVM's.
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + Objects.requireNonNullElse(System.getenv("PATH"), "/usr/bin:/bin"));
        return env;
    }

    private Path privateHomePath() {
        return cacheDir.resolve("mpj-home");
    }

    /** Makes (again, if MPJ's jars changed) the private MPJ_HOME described in the class comment. */
    Path privateHome() {
        Path home = privateHomePath();
        Path lib = home.resolve("lib");
        try {
            Files.createDirectories(lib);
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(mpjHome.resolve("lib"), "*.jar")) {
                for (Path jar : jars) {
                    Path target = lib.resolve(jar.getFileName());
                    if (!Files.exists(target) || Files.size(target) != Files.size(jar)) {
                        Files.copy(jar, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            for (String jar : DEBIAN_DEPENDENCIES) {
                Path link = lib.resolve(jar);
                if (!Files.exists(link)) {
                    Files.deleteIfExists(link);
                    Files.createSymbolicLink(link, dependencies.resolve(jar));
                }
            }
            Path conf = home.resolve("conf");
            if (!Files.exists(conf)) {
                Files.deleteIfExists(conf);
                Files.createSymbolicLink(conf, mpjHome.resolve("conf").toRealPath());
            }
            return home;
        } catch (IOException e) {
            throw new PeerException("cannot make MPJ Express's private home in " + home + ": " + e.getMessage(), e);
        }
    }

    /** Compiles MpjBench against MPJ's mpj.jar into the cache (again only when the source changed). */
    Path build(Path home) {
        byte[] source = source();
        String hash = OpenMpiPeer.hash(source, home.resolve("lib/mpj.jar").toString(), version);
        Path classes = cacheDir.resolve("mpj-bench-" + hash);
        if (Files.isRegularFile(classes.resolve("MpjBench.class"))) {
            return classes;
        }
        try {
            Path src = Files.createTempDirectory(cacheDir, "mpj-src-");
            Files.write(src.resolve(SOURCE_RESOURCE), source);
            Path partial = Files.createTempDirectory(cacheDir, "mpj-bench-partial-");
            String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
            PeerProcess.Output out = PeerProcess.run(List.of(javac, "--release", "17", "-cp", home.resolve("lib/mpj.jar").toString(),
                    "-d", partial.toString(), src.resolve(SOURCE_RESOURCE).toString()), Map.of(), null, Duration.ofMinutes(2));
            if (out.exitCode() != 0) {
                throw new PeerException("javac failed on MpjBench.java:\n" + PeerProcess.tail(out.stdout() + out.stderr()));
            }
            Files.move(partial, classes, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(src.resolve(SOURCE_RESOURCE));
            Files.deleteIfExists(src);
            return classes;
        } catch (IOException e) {
            throw new PeerException("cannot build MpjBench in " + cacheDir + ": " + e.getMessage(), e);
        }
    }

    private static byte[] source() {
        try (InputStream in = MpjPeer.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                throw new PeerException(SOURCE_RESOURCE + " is missing from the classpath beside " + MpjPeer.class.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SOURCE_RESOURCE, e);
        }
    }
}
