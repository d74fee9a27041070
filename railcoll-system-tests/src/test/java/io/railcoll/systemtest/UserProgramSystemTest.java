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
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code railcoll run} with the user's own program, as a user would: a class compiled with plain {@code javac} (the
 * JDK's own binary, a separate process) against railcoll's classes, given by {@code --classpath}, by {@code --jar},
 * by {@code $CLASSPATH} and by {@code --jvm-option -cp}; the CLI is its own process (its real entry point, what
 * {@code bin/railcoll} execs). Every rank checks its all-gather byte for byte and prints a line the test counts.
 * Bad programs (unknown class, no entry point, compiled for a newer Java) are refused before any rank starts.
 */
class UserProgramSystemTest {
    /** The README's example, made checkable: every rank's block is its rank repeated, and every block is checked. */
    static final String README_EXAMPLE = """
            import io.railcoll.Communicator;
            import io.railcoll.Railcoll;

            public class Example {
                public static void main(String[] args) throws Exception {
                    int b = Integer.parseInt(args[0]);
                    try (Communicator comm = Railcoll.init()) {
                        byte[] mine = new byte[b];
                        java.util.Arrays.fill(mine, (byte) (comm.rank() * 7 + 1));
                        byte[] all = new byte[mine.length * comm.size()];
                        comm.allgather(mine, all);
                        for (int r = 0; r < comm.size(); r++) {
                            for (int i = 0; i < b; i++) {
                                if (all[r * b + i] != (byte) (r * 7 + 1)) {
                                    throw new AssertionError("rank " + comm.rank() + ": byte " + i + " of rank " + r
                                            + "'s block is " + all[r * b + i]);
                                }
                            }
                        }
                        System.out.println("example ok rank " + comm.rank() + " of " + comm.size());
                    }
                }
            }
            """;

    @Test
    void readmeExampleCompiledWithJavacRunsFromClassDirectory(@TempDir Path dir) throws Exception {
        Path classes = compile(dir, "Example", README_EXAMPLE, List.of());
        Run r = cli(List.of("run", "--placement", "2,1", "--rails", "2", "--classpath", classes.toString(),
                "Example", "1000"), Map.of());
        assertEquals(0, r.exit, r.output);
        assertEquals(3, count(r.output, "example ok rank"), r.output);
        assertTrue(r.output.contains("of 3"), r.output);
    }

    @Test
    void jarWithManifestMainClassAndClasspathVariableAndJvmOptionClassPath(@TempDir Path dir) throws Exception {
        Path classes = compile(dir, "Example", README_EXAMPLE, List.of());
        Path jar = jar(classes, dir.resolve("app.jar"), "Example");
        Run byJar = cli(List.of("run", "--placement", "2", "--rails", "1", "--jvm-option", "-Xmx128m", "--jar",
                jar.toString(), "64"), Map.of());
        assertEquals(0, byJar.exit, byJar.output);
        assertEquals(2, count(byJar.output, "example ok rank"), byJar.output);

        Run byVariable = cli(List.of("run", "--placement", "2", "--rails", "1", "Example", "8"),
                Map.of("CLASSPATH", jar.toString()));
        assertEquals(0, byVariable.exit, byVariable.output);
        assertEquals(2, count(byVariable.output, "example ok rank"), byVariable.output);

        Run byJvmOption = cli(List.of("run", "--placement", "2", "--rails", "1", "--jvm-option=-cp",
                "--jvm-option=" + classes, "Example", "8"), Map.of());
        assertEquals(0, byJvmOption.exit, byJvmOption.output);
        assertEquals(2, count(byJvmOption.output, "example ok rank"), byJvmOption.output);
    }

    /**
     * {@code railcoll run} starts its ranks with the Vector API's module by default (decision 0233): the module is in
     * effect in the program's JVM and the reductions combine with it, the JVM's incubator line is dropped and the
     * program's own standard error (a line like it included) comes through; {@code --vector-api off} starts them
     * without it, and so does a JVM without C2.
     */
    @Test
    void ranksRunWithTheVectorApiByDefaultAndTheJvmsIncubatorLineIsDropped(@TempDir Path dir) throws Exception {
        String source = """
                import io.railcoll.Communicator;
                import io.railcoll.Railcoll;
                import io.railcoll.reduce.PredefinedOperator;

                public class Vectors {
                    public static void main(String[] args) throws Exception {
                        try (Communicator comm = Railcoll.init()) {
                            double[] mine = new double[1001];
                            for (int i = 0; i < mine.length; i++) {
                                mine[i] = comm.rank() * 1000 + i;
                            }
                            double[] sum = new double[mine.length];
                            comm.allreduce(mine, sum, PredefinedOperator.SUM);
                            for (int i = 0; i < sum.length; i++) {
                                double expected = 1000.0 * comm.size() * (comm.size() - 1) / 2 + (double) i * comm.size();
                                if (sum[i] != expected) {
                                    throw new AssertionError("element " + i + " is " + sum[i] + ", not " + expected);
                                }
                            }
                            System.err.println("note from rank " + comm.rank());
                            System.err.println("WARNING: Using incubator modules: jdk.incubator.vector, said rank " + comm.rank());
                            System.out.println("rank " + comm.rank() + " module "
                                    + ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() + " vector-api "
                                    + io.railcoll.reduce.Combiners.vectorApi());
                        }
                    }
                }
                """;
        Path classes = compile(dir, "Vectors", source, List.of());
        Run byDefault = cli(List.of("run", "--placement", "2", "--rails", "1", "--classpath", classes.toString(), "Vectors"),
                Map.of());
        assertEquals(0, byDefault.exit, byDefault.output);
        for (int r = 0; r < 2; r++) {
            assertTrue(byDefault.output.contains("[r" + r + "] rank " + r + " module true vector-api true"), byDefault.output);
            assertTrue(byDefault.output.contains("[r" + r + "] note from rank " + r), byDefault.output);
            assertTrue(byDefault.output.contains("[r" + r + "] WARNING: Using incubator modules: jdk.incubator.vector, said rank "
                    + r), byDefault.output);
        }
        assertEquals(2, count(byDefault.output, "WARNING: Using incubator modules"), byDefault.output);

        Run off = cli(List.of("run", "--placement", "2", "--rails", "1", "--vector-api", "off", "--classpath",
                classes.toString(), "Vectors"), Map.of());
        assertEquals(0, off.exit, off.output);
        assertEquals(2, count(off.output, "module false vector-api false"), off.output);
        assertEquals(2, count(off.output, "note from rank"), off.output);

        Run withoutC2 = cli(List.of("run", "--placement", "2", "--rails", "1", "--jvm-option=-XX:TieredStopAtLevel=1",
                "--classpath", classes.toString(), "Vectors"), Map.of());
        assertEquals(0, withoutC2.exit, withoutC2.output);
        assertEquals(2, count(withoutC2.output, "module false vector-api false"), withoutC2.output);
    }

    @Test
    void classCompiledForAnOlderReleaseRuns(@TempDir Path dir) throws Exception {
        // --release 17 cannot see railcoll's Java 25 classes; the program reaches them by reflection, as a library
        // built for an older Java would through an adapter.
        String source = """
                public class Old {
                    public static void main(String[] args) throws Exception {
                        Class<?> railcoll = Class.forName("io.railcoll.Railcoll");
                        try (AutoCloseable comm = (AutoCloseable) railcoll.getMethod("init").invoke(null)) {
                            Class<?> api = Class.forName("io.railcoll.Communicator");
                            Object rank = api.getMethod("rank").invoke(comm);
                            api.getMethod("barrier").invoke(comm);
                            System.out.println("old ok rank " + rank + " version " + System.getProperty("java.specification.version"));
                        }
                    }
                }
                """;
        Path classes = compile(dir, "Old", source, List.of("--release", "17"));
        assertEquals(61, classFileMajor(classes.resolve("Old.class")));
        Run r = cli(List.of("run", "--placement", "2", "--rails", "1", "--classpath", classes.toString(), "Old"), Map.of());
        assertEquals(0, r.exit, r.output);
        assertEquals(2, count(r.output, "old ok rank"), r.output);
    }

    @Test
    void badProgramsAreRefusedBeforeAnyRankStarts(@TempDir Path dir) throws Exception {
        Path classes = compile(dir, "Example", README_EXAMPLE, List.of());
        Run unknown = cli(List.of("run", "--placement", "2", "--classpath", classes.toString(), "com.example.Missing"), Map.of());
        assertEquals(2, unknown.exit, unknown.output);
        assertEquals(1, unknown.output.strip().lines().count(), unknown.output);
        assertTrue(unknown.output.contains("MAIN_CLASS: class com.example.Missing not found on the class path (railcoll's"
                + " jars and " + classes + "); give it with --classpath or --jar"), unknown.output);

        Path noMain = compile(dir.resolve("nomain"), "NoMain", "public class NoMain { }", List.of());
        Run noEntry = cli(List.of("run", "--placement", "2", "--classpath", noMain.toString(), "NoMain"), Map.of());
        assertEquals(2, noEntry.exit, noEntry.output);
        assertTrue(noEntry.output.contains("MAIN_CLASS: NoMain has neither a public static void main"), noEntry.output);
        assertEquals(1, noEntry.output.strip().lines().count(), noEntry.output);

        // A class file of the next Java release: its version field says so, as javac 26 would write it.
        Path future = dir.resolve("future");
        Files.createDirectories(future);
        byte[] bytes = Files.readAllBytes(classes.resolve("Example.class"));
        int next = Runtime.version().feature() + 45;
        bytes[6] = (byte) (next >> 8);
        bytes[7] = (byte) next;
        Files.write(future.resolve("Example.class"), bytes);
        Run tooNew = cli(List.of("run", "--placement", "2", "--classpath", future.toString(), "Example", "8"), Map.of());
        assertEquals(2, tooNew.exit, tooNew.output);
        assertEquals(1, tooNew.output.strip().lines().count(), tooNew.output);
        assertTrue(tooNew.output.contains("compiled for Java " + (Runtime.version().feature() + 1)) && tooNew.output.contains(
                "javac --release " + Runtime.version().feature()), tooNew.output);
        assertTrue(!tooNew.output.contains("[r0]"), "a rank started: " + tooNew.output);
    }

    /** Compiles one source file with the JDK's javac binary, against railcoll's classes; returns the class dir. */
    static Path compile(Path dir, String className, String source, List<String> options) throws Exception {
        Path src = dir.resolve("src");
        Path classes = dir.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        Path file = src.resolve(className + ".java");
        Files.writeString(file, source);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-d", classes.toString()));
        cmd.addAll(options);
        if (options.isEmpty()) {
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
        }
        cmd.add(file.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "javac did not finish");
        assertEquals(0, p.exitValue(), "javac: " + out);
        return classes;
    }

    private static Path jar(Path classes, Path jar, String mainClass) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry(mainClass + ".class"));
            out.write(Files.readAllBytes(classes.resolve(mainClass + ".class")));
            out.closeEntry();
        }
        return jar;
    }

    private static int classFileMajor(Path classFile) throws IOException {
        byte[] b = Files.readAllBytes(classFile);
        return ((b[6] & 0xff) << 8) | (b[7] & 0xff);
    }

    static int count(String text, String what) {
        return (int) text.lines().filter(l -> l.contains(what)).count();
    }

    record Run(int exit, String output) {
    }

    /** The CLI as its own process: what bin/railcoll execs, with railcoll's class path and nothing of the test's. */
    private static Run cli(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(railcollClassPath());
        cmd.add("io.railcoll.cli.RailcollCli");
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("CLASSPATH");
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("railcoll " + args + " did not finish");
        }
        return new Run(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    /** This JVM's class path without the test classes, so a user class is found only where the test puts it. */
    static String railcollClassPath() {
        List<String> keep = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.endsWith("test-classes")) {
                keep.add(e);
            }
        }
        return String.join(java.io.File.pathSeparator, keep);
    }
}
