package io.railcoll.systemtest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The distribution archive as a cluster node gets it: {@code railcoll dist --runtime} writes the tarball, which is
 * unpacked with {@code tar} into an empty directory; the README's example is compiled with plain {@code javac}
 * against the archive's {@code lib/railcoll-core-*.jar}, and the archive's own {@code bin/railcoll run --classpath}
 * runs it on 4 ranks with an environment that has no JDK and no Maven: {@code JAVA_HOME} unset and a PATH that holds
 * only {@code bash} (the script's interpreter). The only Java it can find is the archive's {@code runtime/}.
 */
class DistributionSystemTest {

    @Test
    void tarballUnpackedIntoAnEmptyDirectoryRunsAUserProgramWithItsOwnRuntime(@TempDir Path dir) throws Exception {
        Path bash = Stream.of("/usr/bin/bash", "/bin/bash").map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(bash != null, "no bash at /usr/bin/bash or /bin/bash: the distribution's bin/railcoll is a bash script");
        assumeTrue(Files.isExecutable(Path.of(System.getProperty("java.home"), "bin", "jlink")),
                "this JVM (" + System.getProperty("java.home") + ") has no jlink: the runtime cannot be built");
        Path out = dir.resolve("out");
        Result dist = run(cliCommand(List.of("dist", "--runtime", "--out", out.toString())), Map.of(), false);
        assertEquals(0, dist.exit, dist.output);
        List<Path> tarballs;
        try (Stream<Path> s = Files.list(out)) {
            tarballs = s.filter(p -> p.getFileName().toString().matches("railcoll-.+\\.tar\\.gz")).toList();
        }
        assertEquals(1, tarballs.size(), "archives in " + out + ": " + tarballs);

        Path node = Files.createDirectories(dir.resolve("node"));
        Result untar = run(List.of("tar", "-C", node.toString(), "-xzf", tarballs.getFirst().toString()), Map.of(), false);
        assertEquals(0, untar.exit, untar.output);
        assertTrue(Files.isExecutable(node.resolve("bin/railcoll")), "no bin/railcoll");
        assertTrue(Files.isExecutable(node.resolve("runtime/bin/java")), "no runtime/bin/java");
        Path coreJar;
        try (Stream<Path> s = Files.list(node.resolve("lib"))) {
            coreJar = s.filter(p -> p.getFileName().toString().matches("railcoll-core-.+\\.jar")).findFirst().orElseThrow();
        }
        try (Stream<Path> s = Files.list(node.resolve("lib"))) {
            // package mpi for programs written for Open MPI's Java bindings (docs/mpi.md)
            assertTrue(s.anyMatch(p -> p.getFileName().toString().matches("railcoll-mpi-.+\\.jar")), "no lib/railcoll-mpi-*.jar");
        }

        // The README's example, compiled against the published jar only.
        Path src = Files.createDirectories(dir.resolve("app/src"));
        Path classes = Files.createDirectories(dir.resolve("app/classes"));
        Files.writeString(src.resolve("Example.java"), UserProgramSystemTest.README_EXAMPLE);
        Result javac = run(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                coreJar.toString(), "-d", classes.toString(), src.resolve("Example.java").toString()), Map.of(), false);
        assertEquals(0, javac.exit, javac.output);

        // A PATH with bash and nothing else: no java, no javac, no mvn.
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Files.createSymbolicLink(tools.resolve("bash"), bash);
        Map<String, String> bare = Map.of("PATH", tools.toString(), "HOME", dir.toString());
        Result job = run(List.of(node.resolve("bin/railcoll").toString(), "run", "--placement", "2,2", "--rails", "2",
                "--classpath", classes.toString(), "Example", "4096"), bare, true);
        assertEquals(0, job.exit, job.output);
        assertEquals(4, UserProgramSystemTest.count(job.output, "example ok rank"), job.output);

        // The same node without the runtime says what it lacks, naming both ways to give it one.
        Files.move(node.resolve("runtime"), dir.resolve("runtime-moved"));
        Result noJava = run(List.of(node.resolve("bin/railcoll").toString(), "info"), bare, true);
        assertEquals(1, noJava.exit, noJava.output);
        assertTrue(noJava.output.contains("no Java runtime") && noJava.output.contains("JAVA_HOME"), noJava.output);
        assertFalse(noJava.output.contains("allgather"), noJava.output);
    }

    static List<String> cliCommand(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", UserProgramSystemTest.railcollClassPath(),
                "io.railcoll.cli.RailcollCli"));
        cmd.addAll(args);
        return cmd;
    }

    record Result(int exit, String output) {
    }

    /** Runs a command to its end (10 minutes at most); {@code clear}: only {@code env}, nothing inherited. */
    static Result run(List<String> cmd, Map<String, String> env, boolean clear) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (clear) {
            pb.environment().clear();
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(cmd + " did not finish");
        }
        return new Result(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }
}
