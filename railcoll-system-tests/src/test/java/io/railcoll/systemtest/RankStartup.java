package io.railcoll.systemtest;

import io.railcoll.bench.CheckApp;
import io.railcoll.launcher.JobClassPath;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.LoopbackNetwork;
import io.railcoll.topology.Placement;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * What makes the test jobs' rank JVMs start cheaper: an ahead-of-time cache of the classes they load (JDK 25's AOT
 * cache, JEP 483/514/515: classes parsed, verified and linked once, with their method profiles), made once per
 * build and then mapped by every rank of every job (decision 0121). A rank that starts without it spends about
 * 0.8 s more processor time loading and linking the same classes (docs/results/suite-time.md).
 *
 * <p>The JVM refuses such a cache on a class path that holds a non-empty directory, and surefire's holds this
 * module's {@code target/test-classes}: the ranks get the same class path with each directory replaced by a jar
 * of its contents, named by a hash of those contents (so an unchanged directory keeps its jar, and the cache made
 * for it, from one build to the next). The cache is named by a hash of the JDK and of every jar's path, size and
 * time, so a stale cache is never named; it is written under a temporary name and moved into place, so ranks
 * starting at once only ever map a whole file. If making it fails, the ranks run without it, as before: it saves
 * time, it decides nothing. Ranks that are given a cache the JVM cannot use (other options) ignore it silently
 * ({@code -XX:AOTMode} stays {@code auto}; its log lines are off, so no rank's output changes).
 *
 * <p>Thread-safety: the first call makes the class path and the cache, under this class's lock.
 */
final class RankStartup {
    /** Where the jars and the cache live: this module's build directory (surefire runs in the module). */
    private static final Path DIR = Path.of("target", "rank-startup").toAbsolutePath();
    /** The options the launcher gives every rank that the cache must be made with too (JobLauncher.start). */
    private static final List<String> LAUNCHER_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED",
            "-XX:+UseSerialGC", "-Xss1m", "-XX:+PerfDisableSharedMem");
    /** Set to {@code false} to run the ranks without the cache (for measuring what it saves). */
    private static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("railcoll.rankAotCache", "true"));

    private static JobClassPath classPath;
    private static List<String> options;

    private RankStartup() {
    }

    /** The ranks' class path: surefire's, each directory replaced by a jar of its contents. */
    static synchronized JobClassPath classPath() {
        if (classPath == null) {
            classPath = jarredClassPath();
        }
        return classPath;
    }

    /** The JVM options that map the cache into a rank (none if it could not be made). */
    static synchronized List<String> options() {
        if (options == null) {
            options = ENABLED ? cacheOptions(classPath()) : List.of();
        }
        return options;
    }

    /** A job's spec with the ranks' class path and, before the test's own JVM options, the cache's. */
    static JobSpec spec(Placement placement, int rails, Class<?> app, List<String> args, Map<String, String> env,
                        List<String> jvmOptions, Duration jobTimeout) {
        List<String> all = new ArrayList<>(options());
        all.addAll(jvmOptions);
        return new JobSpec(placement, rails, app.getName(), args, env, all, jobTimeout, classPath());
    }

    private static JobClassPath jarredClassPath() {
        JobClassPath surefire = JobClassPath.railcollOnly();
        List<String> entries = new ArrayList<>();
        try {
            Files.createDirectories(DIR);
            for (String e : surefire.railcoll()) {
                Path p = Path.of(e);
                if (Files.isRegularFile(p)) {
                    entries.add(e);
                } else if (Files.isDirectory(p) && !isEmpty(p)) {
                    entries.add(jarOf(p).toString());
                }
                // a missing or empty directory holds nothing a rank could load
            }
            return new JobClassPath(entries, surefire.user());
        } catch (IOException | RuntimeException e) {
            System.err.println("railcoll test ranks: could not jar the class path's directories (" + e
                    + "); the ranks use surefire's class path, and so no class cache");
            return surefire;
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /** A jar of {@code dir}'s files, named by their hash; reused when it exists. */
    private static Path jarOf(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted(Comparator.comparing(f -> dir.relativize(f).toString())).toList();
        }
        MessageDigest md = sha256();
        for (Path f : files) {
            md.update(dir.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
            md.update(Files.readAllBytes(f));
        }
        Path jar = DIR.resolve(dir.getParent().getParent().getFileName() + "-" + dir.getFileName() + "-"
                + HexFormat.of().formatHex(md.digest(), 0, 8) + ".jar");
        if (Files.exists(jar)) {
            return jar;
        }
        Path tmp = Files.createTempFile(DIR, "jar", ".tmp");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(tmp))) {
            for (Path f : files) {
                JarEntry entry = new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/'));
                entry.setTime(0);
                out.putNextEntry(entry);
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return jar;
    }

    /** The options that map the cache for {@code cp}, making it first if this build has none. */
    private static List<String> cacheOptions(JobClassPath cp) {
        if (cp.railcoll().stream().anyMatch(e -> Files.isDirectory(Path.of(e)))) {
            return List.of(); // the JVM makes no cache for a class path with a directory (see above)
        }
        try {
            Path cache = DIR.resolve("ranks-" + key(cp) + ".aot");
            if (!Files.exists(cache)) {
                long t0 = System.nanoTime();
                make(cp, cache);
                System.err.println("railcoll test ranks: made the class cache " + cache.getFileName() + " in "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms");
            }
            return List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off,cds*=off");
        } catch (IOException | RuntimeException e) {
            System.err.println("railcoll test ranks: no class cache (" + e + "); the ranks load their classes as usual");
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** The JDK, the launcher's options and every class-path entry's path, size and time. */
    private static String key(JobClassPath cp) throws IOException {
        MessageDigest md = sha256();
        md.update((System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n"
                + LAUNCHER_OPTIONS).getBytes(StandardCharsets.UTF_8));
        for (String e : cp.railcoll()) {
            Path p = Path.of(e);
            md.update((e + "\n" + Files.size(p) + "\n" + Files.getLastModifiedTime(p).toMillis() + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md.digest(), 0, 8);
    }

    /**
     * A training job (three ranks on two nodes, two rails: shared memory, the rails and every algorithm of every
     * collective) records which classes its ranks load, one configuration file per rank; one JVM then makes the
     * cache from the largest of them (the rank that loaded the most), under a temporary name moved into place.
     */
    private static void make(JobClassPath cp, Path cache) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory(DIR, "training");
        try {
            List<String> record = List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + work.resolve("rank%p.aotconf"),
                    "-Xlog:aot*=off,cds*=off");
            JobSpec spec = new JobSpec(Placement.parse("2,1"), 2, CheckApp.class.getName(),
                    List.of("sizes=0,7,65537", "algorithms=all", "roots=0"), Map.of(), record, Duration.ofMinutes(5), cp);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JobResult r;
            try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                 LoopbackNetwork net = new LoopbackNetwork(2, 2)) {
                r = new JobLauncher(o, o).run(spec, net);
            }
            if (!r.succeeded()) {
                throw new IOException("the training job failed: " + r.failure() + "\n" + out.toString(StandardCharsets.UTF_8));
            }
            Path config;
            try (Stream<Path> s = Files.list(work)) {
                config = s.filter(f -> f.getFileName().toString().endsWith(".aotconf"))
                        .max(Comparator.comparingLong(f -> f.toFile().length()))
                        .orElseThrow(() -> new IOException("the training job's ranks recorded no configuration"));
            }
            Path tmp = work.resolve("ranks.aot");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            cmd.addAll(LAUNCHER_OPTIONS);
            cmd.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + config, "-XX:AOTCache=" + tmp,
                    "-cp", cp.rankClassPath()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] said;
            try (InputStream in = p.getInputStream()) {
                said = in.readAllBytes();
            }
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("making the cache took over 5 minutes");
            }
            if (p.exitValue() != 0 || !Files.exists(tmp)) {
                throw new IOException("making the cache failed (status " + p.exitValue() + "): "
                        + new String(said, StandardCharsets.UTF_8));
            }
            Files.move(tmp, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            // The caches of earlier builds (about 20 MB each) are never named again. A rank that maps one now
            // keeps its mapping; the jars stay, as a running rank of another test JVM may still open one.
            try (Stream<Path> s = Files.list(DIR)) {
                List<Path> earlier = s.filter(f -> f.getFileName().toString().matches("ranks-.*\\.aot"))
                        .filter(f -> !f.equals(cache)).toList();
                for (Path old : earlier) {
                    Files.deleteIfExists(old);
                }
            }
        } finally {
            deleteTree(work);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
