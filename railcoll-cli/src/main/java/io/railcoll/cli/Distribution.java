package io.railcoll.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Writes {@code railcoll-<version>.tar.gz}: everything a cluster node needs to run {@code bin/railcoll} with no
 * Maven, no build and (with a runtime) no JDK. The archive holds, at its top level:
 * <ul>
 *   <li>{@code bin/railcoll}: a launcher script that runs the CLI with {@code runtime/bin/java} when the archive has
 *       one, else {@code $JAVA_HOME/bin/java}, else {@code java} on the PATH (and says which is missing);</li>
 *   <li>{@code lib/}: the CLI's class path as jars: railcoll's modules ({@code railcoll-core-<version>.jar} and the
 *       others) and their dependencies (picocli and the benchmark's);</li>
 *   <li>{@code runtime/} (optional): a jlink'ed Java runtime of the modules railcoll uses, from this JDK.</li>
 * </ul>
 * The jars are this process's own class path, so the archive is what this {@code bin/railcoll} runs; a class
 * directory (a build not yet packaged) is jarred under its module's name. Stateless.
 */
final class Distribution {
    /** The runtime's modules: the JDK modules railcoll's jars and their dependencies use (jdeps, 2026-11-26). */
    static final List<String> RUNTIME_MODULES = List.of("java.base", "java.desktop", "java.management", "java.sql",
            "java.logging", "java.xml", "jdk.management", "jdk.unsupported", "jdk.jfr", "jdk.jcmd");

    private Distribution() {
    }

    /** The project's version, from the CLI jar's version.properties. */
    static String version() {
        try (InputStream in = Distribution.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            String v = p.getProperty("version", "");
            return v.isBlank() || v.startsWith("${") ? "dev" : v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the archive into {@code outDir} and returns its path.
     *
     * @param classPath the jars and class directories of the CLI (this process's {@code java.class.path})
     * @param runtime   whether to include a jlink'ed runtime of {@code javaHome}
     */
    static Path write(Path outDir, List<Path> classPath, boolean runtime, Path javaHome) throws IOException, InterruptedException {
        String version = version();
        Files.createDirectories(outDir);
        Path staging = Files.createTempDirectory(outDir, ".railcoll-dist-");
        try {
            Path bin = Files.createDirectories(staging.resolve("bin"));
            Path lib = Files.createDirectories(staging.resolve("lib"));
            for (Path entry : classPath) {
                if (Files.isDirectory(entry)) {
                    jarDirectory(entry, lib.resolve(moduleName(entry) + "-" + version + ".jar"));
                } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                    Files.copy(entry, lib.resolve(entry.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Path script = bin.resolve("railcoll");
            Files.writeString(script, launcherScript(version), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            List<String> entries = new ArrayList<>(List.of("bin", "lib"));
            if (runtime) {
                jlink(javaHome, staging.resolve("runtime"));
                entries.add("runtime");
            }
            Path tarball = outDir.resolve("railcoll-" + version + ".tar.gz");
            List<String> tar = new ArrayList<>(List.of("tar", "-czf", tarball.toString(), "-C", staging.toString()));
            tar.addAll(entries);
            run(tar, "tar");
            return tarball;
        } finally {
            deleteTree(staging);
        }
    }

    /**
     * bin/railcoll of the archive. Pure bash: a node that unpacked the archive may have nothing else on its PATH.
     * Ranks are started by the CLI with its own java (java.home), so they run on the same runtime.
     */
    static String launcherScript(String version) {
        return """
                #!/usr/bin/env bash
                # railcoll %s: bin/railcoll run|bench|info|... (bin/railcoll --help). From the distribution archive:
                # runs the CLI on runtime/ when the archive has one, else on $JAVA_HOME, else on java from the PATH.
                here="${BASH_SOURCE[0]%%/*}"
                [ "$here" = "${BASH_SOURCE[0]}" ] && here=.
                home="$(cd "$here/.." && pwd)"
                if [ -x "$home/runtime/bin/java" ]; then
                  java="$home/runtime/bin/java"
                elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
                  java="$JAVA_HOME/bin/java"
                elif command -v java >/dev/null 2>&1; then
                  java="$(command -v java)"
                else
                  echo "railcoll: no Java runtime: this archive has no runtime/ (build it with bin/railcoll dist --runtime)," \\
                    "JAVA_HOME is not set and there is no java on the PATH; railcoll needs Java 25" >&2
                  exit 1
                fi
                # The runtime's major version from its release file (no JVM started); empty when there is none.
                major() {
                  local home="${1%%/bin/java}" line
                  [ -r "$home/release" ] || return 0
                  while IFS= read -r line; do
                    case "$line" in JAVA_VERSION=*) line="${line#*=}"; line="${line#?}"; echo "${line%%%%[!0-9]*}"; return 0 ;; esac
                  done < "$home/release"
                }
                real="$java"
                if [ -L "$java" ] && command -v readlink >/dev/null 2>&1; then real="$(readlink -f "$java")"; fi
                v="$(major "$real")"
                if [ -n "$v" ] && [ "$v" -lt 25 ] 2>/dev/null; then
                  echo "railcoll: $java is Java $v; railcoll needs Java 25: set JAVA_HOME to a JDK 25, or use an archive" \
                    "with a runtime (bin/railcoll dist --runtime)" >&2
                  exit 1
                fi
                exec "$java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$home/lib/*" io.railcoll.cli.RailcollCli "$@"
                """.formatted(version);
    }

    private static void jlink(Path javaHome, Path out) throws IOException, InterruptedException {
        Path jlink = javaHome.resolve("bin").resolve("jlink");
        if (!Files.isExecutable(jlink)) {
            throw new IllegalStateException("--runtime needs jlink, which " + javaHome + " does not have (a JRE, not a"
                    + " JDK): run bin/railcoll dist on a JDK 25");
        }
        run(List.of(jlink.toString(), "--add-modules", String.join(",", RUNTIME_MODULES), "--strip-debug",
                "--no-man-pages", "--no-header-files", "--compress", "zip-6", "--output", out.toString()), "jlink");
    }

    /** railcoll-core for .../railcoll-core/target/classes. */
    static String moduleName(Path classDir) {
        Path p = classDir.toAbsolutePath().normalize();
        if (p.getFileName() != null && p.getFileName().toString().equals("classes") && p.getParent() != null
                && p.getParent().getFileName().toString().equals("target") && p.getParent().getParent() != null) {
            return p.getParent().getParent().getFileName().toString();
        }
        return p.getFileName() == null ? "classes" : p.getFileName().toString();
    }

    private static void jarDirectory(Path dir, Path jar) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (OutputStream os = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(os, m);
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = dir.relativize(f).toString().replace('\\', '/');
                if (name.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(name));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    private static void run(List<String> cmd, String what) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(what + " did not finish in 10 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(what + " failed (status " + p.exitValue() + "): " + out.strip());
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
