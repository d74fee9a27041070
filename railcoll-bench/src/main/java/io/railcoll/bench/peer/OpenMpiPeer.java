package io.railcoll.bench.peer;

import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.Series;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Open MPI as the peer of a railcoll sweep: finds {@code mpicc} and {@code mpirun}, builds
 * {@code peer_bench.c} into a cache directory (again only when the source or the compiler changed), runs
 * it under {@code mpirun} with a deadline and returns its points as {@link BenchResult}s named
 * {@value #NAME}.
 *
 * <p>Debian installs Open MPI's tools also as {@code mpicc.openmpi}/{@code mpirun.openmpi}; those are
 * preferred because plain {@code mpirun} may be MPICH's when both are installed, and MPICH's rejects
 * Open MPI's options. A plain {@code mpirun} is used only if {@code --version} says it is Open MPI's.
 *
 * <p>One caller at a time per instance (builds write into the cache directory; concurrent builds of the
 * same source are safe, they rename the same content into place). The caller owns nothing to close:
 * each run's processes are waited for, or killed at the deadline, before {@link #run} returns.
 */
public final class OpenMpiPeer {
    public static final String NAME = "openmpi";
    public static final String NOT_INSTALLED =
            "Open MPI not installed: apt-get install -y openmpi-bin libopenmpi-dev; continuing without the peer";
    static final String SOURCE_RESOURCE = "peer_bench.c";
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(2);

    /** The lookup's outcome: a peer, or words for the user saying why there is none and how to get one. */
    public record Lookup(Optional<OpenMpiPeer> peer, String message) {
    }

    private final Path mpicc;
    private final Path mpirun;
    private final String version;
    private final Path cacheDir;

    private OpenMpiPeer(Path mpicc, Path mpirun, String version, Path cacheDir) {
        this.mpicc = mpicc;
        this.mpirun = mpirun;
        this.version = version;
        this.cacheDir = cacheDir;
    }

    /** Looks for Open MPI on {@code PATH}; never throws for a missing or foreign MPI. */
    public static Lookup locate(Path cacheDir) {
        String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
        List<Path> dirs = new ArrayList<>();
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                dirs.add(Path.of(dir));
            }
        }
        return locate(cacheDir, dirs);
    }

    static Lookup locate(Path cacheDir, List<Path> searchPath) {
        Optional<Path> mpicc = find(searchPath, "mpicc.openmpi").or(() -> find(searchPath, "mpicc"));
        Optional<Path> mpirun = find(searchPath, "mpirun.openmpi").or(() -> find(searchPath, "mpirun"));
        if (mpicc.isEmpty() || mpirun.isEmpty()) {
            return new Lookup(Optional.empty(), NOT_INSTALLED);
        }
        String identity;
        String version;
        try {
            identity = runTool(List.of(mpirun.get().toString(), "--version")).lines().findFirst().orElse("").strip();
            // Open MPI's compiler wrapper alone knows --showme:version ("mpicc: Open MPI 4.1.4 (Language: C)").
            String showme = runTool(List.of(mpicc.get().toString(), "--showme:version")).strip();
            version = showme.contains(": ") ? showme.substring(showme.indexOf(": ") + 2) : showme;
        } catch (PeerException e) {
            return new Lookup(Optional.empty(), "Open MPI's tools failed (" + e.getMessage() + "); " + NOT_INSTALLED);
        }
        // Open MPI 4 names its runtime OpenRTE ("mpirun.openmpi (OpenRTE) 4.1.4"); Open MPI 5 says Open MPI.
        if (!identity.contains("Open MPI") && !identity.contains("OpenRTE")) {
            return new Lookup(Optional.empty(), mpirun.get() + " is not Open MPI's (it says '" + identity + "'); "
                    + NOT_INSTALLED);
        }
        String ignored = OpenMpiEnvironment.note();
        return new Lookup(Optional.of(new OpenMpiPeer(mpicc.get(), mpirun.get(), version, cacheDir)),
                "peer: " + version + " (" + mpirun.get() + ")" + (ignored.isEmpty() ? "" : "\n" + ignored));
    }

    /**
     * The first executable named {@code name} in the search path, as a shell would find it, in its directory's real
     * path. Open MPI takes its installation prefix from the directory mpirun was started from, and refuses one of
     * slashes only: on a merged-/usr system a PATH listing {@code /bin} first would hand it {@code /bin/mpirun}
     * ("A prefix was supplied to mpirun that only contained slashes"), where {@code /usr/bin/mpirun} works.
     */
    private static Optional<Path> find(List<Path> searchPath, String name) {
        return searchPath.stream().map(dir -> dir.resolve(name))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst()
                .map(OpenMpiPeer::inRealDirectory);
    }

    private static Path inRealDirectory(Path program) {
        try {
            return program.getParent().toRealPath().resolve(program.getFileName());
        } catch (IOException e) {
            return program; // it was there a moment ago; let running it say what is wrong
        }
    }

    /**
     * {@code target/peer-cache} of the build these classes were loaded from (classes directory or jar
     * under a {@code target}), so {@code mvn clean} removes it; the system temp directory otherwise.
     */
    public static Path defaultCacheDir() {
        try {
            Path here = Path.of(OpenMpiPeer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                if (p.getFileName() != null && p.getFileName().toString().equals("target")) {
                    return p.resolve("peer-cache");
                }
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // No usable code source (a custom class loader): fall through to the temp directory.
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "railcoll-peer-cache");
    }

    /** The mpirun this peer runs, found on the PATH by {@link #locate}: the one path every peer run uses. */
    public Path mpirun() {
        return mpirun;
    }

    /** Version and launcher, for reports: {@code Open MPI 4.1.4 (Language: C), /usr/bin/mpirun.openmpi}. */
    public String identity() {
        return version + ", " + mpirun;
    }

    /** What {@code mpicc --showme:version} says, e.g. {@code Open MPI 4.1.4 (Language: C)}. */
    public String version() {
        return version;
    }

    /**
     * The compiled benchmark, building it first if the cache has no binary for this source and compiler.
     *
     * @throws PeerException if mpicc fails or takes longer than two minutes
     */
    public Path build() {
        byte[] source = source();
        String hash = hash(source, mpicc.toString(), version);
        Path binary = cacheDir.resolve("peer_bench-" + hash);
        if (Files.isExecutable(binary)) {
            return binary;
        }
        try {
            Files.createDirectories(cacheDir);
            Path src = cacheDir.resolve("peer_bench-" + hash + ".c");
            Files.write(src, source);
            Path partial = Files.createTempFile(cacheDir, "peer_bench-", ".partial");
            runTool(List.of(mpicc.toString(), "-O2", "-std=c11", "-Wall", "-Wextra", "-o", partial.toString(),
                    src.toString()), COMPILE_TIMEOUT);
            // Rename into place so a concurrent run never executes a half-written binary.
            try {
                Files.move(partial, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, binary, StandardCopyOption.REPLACE_EXISTING);
            }
            removeStale(hash);
            return binary;
        } catch (IOException e) {
            throw new PeerException("cannot build peer_bench in " + cacheDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Builds if needed, runs the sweep under mpirun and returns one result per size.
     *
     * @throws PeerException if the run times out, mpirun fails, a check finds wrong bytes or the output is
     *                       incomplete; the message carries the tail of mpirun's output
     */
    public List<BenchResult> run(PeerRun run) {
        Series series = Series.of(run.collective(), NAME, run.placement(), run.rails(), run.engineLabel());
        return output(run).results(series);
    }

    /** {@link #run}'s points with the rail-accounting lines the ranks printed and this peer's identity. */
    public PeerResults measure(PeerRun run) {
        Series series = Series.of(run.collective(), NAME, run.placement(), run.rails(), run.engineLabel());
        PeerOutput out = output(run);
        return new PeerResults(NAME, identity(), out.results(series), out.railLines(), List.of());
    }

    /** {@link #run}'s parsed output, with what it does not turn into results (the calls per sample). */
    PeerOutput output(PeerRun run) {
        Path binary = build();
        List<String> command = MpirunCommand.build(mpirun, binary, run, Runtime.getRuntime().availableProcessors());
        PeerProcess.Output out = PeerProcess.run(command, Map.of(), null, run.timeout(), OpenMpiEnvironment::dropped);
        PeerOutput parsed = PeerOutput.parse(out.stdout());
        String what = run.collective().id() + " on " + run.ranks() + " ranks";
        if (!parsed.failedChecks().isEmpty()) {
            String sizes = parsed.failedChecks().stream()
                    .map(c -> c.sizeBytes() + " bytes (on " + c.badRanks() + " of " + run.ranks() + " ranks)")
                    .collect(Collectors.joining(", "));
            throw new PeerException("Open MPI " + what + " delivered wrong bytes at " + sizes + "; stderr:\n"
                    + PeerProcess.tail(out.stderr()));
        }
        if (out.exitCode() != 0 || !parsed.complete()) {
            throw new PeerException("Open MPI " + what + " failed (exit status " + out.exitCode()
                    + (parsed.complete() ? "" : ", output incomplete") + "): " + String.join(" ", command)
                    + "\nstdout:\n" + PeerProcess.tail(out.stdout()) + "\nstderr:\n" + PeerProcess.tail(out.stderr()));
        }
        return parsed;
    }

    private static String runTool(List<String> command) {
        return runTool(command, TOOL_TIMEOUT);
    }

    /** Runs a short tool (mpicc, mpirun --version); its combined output on success, an exception otherwise. */
    private static String runTool(List<String> command, Duration timeout) {
        PeerProcess.Output out = PeerProcess.run(command, Map.of(), null, timeout, OpenMpiEnvironment::dropped);
        if (out.exitCode() != 0) {
            throw new PeerException("'" + String.join(" ", command) + "' exited with status " + out.exitCode()
                    + ":\n" + PeerProcess.tail(out.stdout() + out.stderr()));
        }
        return out.stdout() + out.stderr();
    }

    private static byte[] source() {
        try (InputStream in = OpenMpiPeer.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                throw new PeerException(SOURCE_RESOURCE + " is missing from the classpath beside "
                        + OpenMpiPeer.class.getName() + "; the railcoll-bench build should have packaged it");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SOURCE_RESOURCE, e);
        }
    }

    /** The binary's identity: source, compiler path and MPI version, so any of them changing rebuilds. */
    static String hash(byte[] source, String compiler, String mpiVersion) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(source);
            sha.update(("\0" + compiler + "\0" + mpiVersion).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Removes binaries and sources of older versions so the cache holds one build. */
    private void removeStale(String currentHash) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(cacheDir, "peer_bench-*")) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!name.startsWith("peer_bench-" + currentHash) && !name.endsWith(".partial")) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
