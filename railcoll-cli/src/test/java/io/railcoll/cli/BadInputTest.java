package io.railcoll.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24 item 5 and issue 26 item 1 at the command line: bad input is refused with one line naming the option and
 * the accepted values, exit code 2, before any rank's JVM starts; an option left at its default does not override a
 * {@code --set} of the same setting, and an explicit option that disagrees with one is an error.
 */
class BadInputTest {
    record Outcome(int code, String out, String err) {
    }

    private static Outcome execute(String... args) {
        CommandLine cli = RailcollCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    private static void assertOneLine(Outcome o, String... parts) {
        assertEquals(2, o.code(), o.err());
        String err = o.err().strip();
        assertFalse(err.contains("\n"), "one line, got: " + err);
        assertFalse(err.contains("Exception"), "no stack trace: " + err);
        for (String p : parts) {
            assertTrue(err.contains(p), "'" + p + "' missing from: " + err);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // --sizes abc printed only: railcoll: For input string: "abc"
            "bench --sizes abc | --sizes ; 'abc' ; k, m or g",
            "bench --sizes 1,4k,-3 | --sizes ; '-3' ; 0..",
            "info --simulate allgather --sizes 1,x | --sizes ; 'x'",
            // --samples 0 was accepted, printed no table and exited 0
            "bench --samples 0 | --samples ; '0' ; 1..2147483647 or auto",
            "bench --iterations 0 | --iterations ; '0' ; 1..",
            "bench --warmup -1 | --warmup ; '-1' ; 0..",
            // --engine turbo started 16 JVMs that each printed a stack trace
            "run --engine turbo io.railcoll.bench.CheckApp | --engine ; 'turbo' ; single, threaded",
            "bench --engine turbo | --engine ; 'turbo' ; single, threaded",
            // all-reduce sums doubles: a size must be whole doubles
            "bench --collective allreduce --sizes 8,12 | --sizes ; 12 ; multiple of 8",
            // tune started 16 ranks that each printed a stack trace
            "tune --collectives allgather,bogus | --collectives ; 'bogus' ; allreduce",
            "tune --collectives allreduce | --collectives ; allreduce ; not time",
            "bench --collective reduce-scatter --sizes 8,20 | --sizes ; 20 ; multiple of 8",
            // MPJ Express 0.44 has no Exscan and a Reduce_scatter that returns wrong sums
            "bench --collective exscan --peer mpj | --peer mpj ; exscan ; --peer openmpi",
            "bench --collective reduce-scatter --peer openmpi,mpj | --peer mpj ; reduce-scatter ; wrong sums",
            "bench --collective scatter --peer openmpi | --peer ; scatter ; railcoll alone",
            "run --timeout-ms 18446744073710 io.railcoll.bench.CheckApp | --timeout-ms ; 18446744073710 ; 1..31536000000",
            "run --stripe-threshold lots io.railcoll.bench.CheckApp | --stripe-threshold ; 'lots'",
            // an unknown application class: 16 stack traces
            "run io.example.NoSuchApp | MAIN_CLASS ; io.example.NoSuchApp ; RankApp",
            "run java.lang.String | MAIN_CLASS ; java.lang.String ; RankApp",
            "run --set RAILCOLL_PORTS=4294967297 io.railcoll.bench.CheckApp | RAILCOLL_PORTS=4294967297 ; 0..1024",
            "run --set RAILCOLL_RENDEZVOUS_SERVER=maybe io.railcoll.bench.CheckApp | RAILCOLL_RENDEZVOUS_SERVER=maybe ; launcher, rank0",
            "run --set RAILCOLL_TIMEOUT_MS=1 --timeout-ms 5 io.railcoll.bench.CheckApp | --timeout-ms 5 ; RAILCOLL_TIMEOUT_MS=1 ; disagree",
            "run --set RAILCOLL_ENGINE=single --engine threaded io.railcoll.bench.CheckApp | --engine threaded ; RAILCOLL_ENGINE=single ; disagree",
            "bench --set RAILCOLL_SHM=off --intra-node shm | --intra-node shm ; RAILCOLL_SHM=off ; disagree",
            "bench --set RAILCOLL_SHM=perhaps | RAILCOLL_SHM=perhaps ; on, off",
            // a misspelt setting was passed to the ranks and ignored; an unknown algorithm failed every rank at its
            // first call with a stack trace
            "run --set RAILCOLL_TIMEOUT_M=5 io.railcoll.bench.CheckApp | RAILCOLL_TIMEOUT_M ; not a railcoll setting ; RAILCOLL_TIMEOUT_MS",
            "run --set RAILCOLL_ALGORITHM_ALLGATHR=allgather.ring io.railcoll.bench.CheckApp | RAILCOLL_ALGORITHM_ALLGATHR ; names no collective ; RAILCOLL_ALGORITHM_ALLGATHER",
            "run --set RAILCOLL_ALGORITHM_ALLGATHER=allgather.nope io.railcoll.bench.CheckApp | RAILCOLL_ALGORITHM_ALLGATHER=allgather.nope ; unknown algorithm ; allgather.ring",
            "bench --set RAILCOLL_ALGORITHM_BARRIER=barrier.nope | barrier.nope ; unknown algorithm",
            // decision 0091: a deterministic run refuses a reduction algorithm that does not fold in rank order
            "bench --collective allreduce --deterministic --algorithms ring | allreduce.ring ; fixed rank order ; --deterministic",
            "bench --deterministic maybe | --deterministic ; 'maybe' ; on, off",
            // decision 0223: an algorithm that runs none of the sizes swept (its slots exceed the node buffer), or
            // none of a placement, is refused before any rank starts; one that runs some of them is swept there
            "bench --collective allreduce --placement 1x2 --sizes 512k,1m --algorithms shm-doubling | --algorithms ; allreduce.shm-doubling ; runs none of the sizes ; node buffer",
            "bench --collective allreduce --placement 2x2 --algorithms allreduce.shm | --algorithms ; allreduce.shm runs none ; nodes",
            "bench --collective allreduce --algorithms shm-dubling | shm-dubling ; unknown allreduce algorithm ; allreduce.shm-doubling",
            "run --set RAILCOLL_DETERMINISTIC=on --deterministic off io.railcoll.bench.CheckApp | --deterministic off ; RAILCOLL_DETERMINISTIC=on ; disagree",
            "bench --no-such-option | --no-such-option",
            // the CG app (decision 0114): its options are parsed as the ranks would, before anything starts
            "app cg --tolerance 2 | tolerance ; below 1 ; 2.0",
            "app cg --grid 0 | grid ; at least 1",
            "app cg --grid 50000 | grid side ; 1..46340",
            "app cg --points 5 | --points ; does not apply to cg",
            "app cg --deterministic --baseline allreduce.ring | allreduce.ring ; rank order ; 0091",
            "app cg --algorithm allgather.ring | allgather.ring ; allreduce algorithms",
            "app kmeans --deterministic --algorithm allreduce.ring | allreduce.ring ; rank order ; 0091",
            "app sort | unknown app 'sort' ; cg",
    })
    void badInputIsOneLineNamingTheOptionWithExitCode2(String args, String expected) {
        List<String> parts = java.util.Arrays.stream(expected.split(";")).map(String::strip).toList();
        long t0 = System.nanoTime();
        Outcome o = execute(args.strip().split("\\s+"));
        assertOneLine(o, parts.toArray(String[]::new));
        // Nothing was launched: a refused command returns long before a single rank JVM could have started.
        assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0) < 20, "took too long: launched something?");
    }

    @Test
    void anOptionLeftAtItsDefaultDoesNotOverrideASet() {
        // Before: --set RAILCOLL_TIMEOUT_MS=1 was silently replaced by --timeout-ms's default of 30000.
        Map<String, String> env = environmentOf("run", "--set", "RAILCOLL_TIMEOUT_MS=1", "--set",
                "RAILCOLL_ENGINE=threaded", "--set", "RAILCOLL_STRIPE_THRESHOLD=64k", "io.railcoll.bench.CheckApp");
        assertEquals("1", env.get("RAILCOLL_TIMEOUT_MS"));
        assertEquals("threaded", env.get("RAILCOLL_ENGINE"));
        assertEquals("64k", env.get("RAILCOLL_STRIPE_THRESHOLD"));
    }

    @Test
    void optionsThatAgreeWithASetOrStandAloneAreUsed() {
        Map<String, String> env = environmentOf("run", "--set", "RAILCOLL_TIMEOUT_MS=5000", "--timeout-ms", "5000",
                "--engine", "threaded", "io.railcoll.bench.CheckApp");
        assertEquals("5000", env.get("RAILCOLL_TIMEOUT_MS"));
        assertEquals("threaded", env.get("RAILCOLL_ENGINE"));
        Map<String, String> defaults = environmentOf("run", "io.railcoll.bench.CheckApp");
        assertEquals("30000", defaults.get("RAILCOLL_TIMEOUT_MS"));
        assertEquals("single", defaults.get("RAILCOLL_ENGINE"));
        assertEquals("1024", defaults.get("RAILCOLL_STRIPE_THRESHOLD"));
    }

    @Test
    void helpShowsTheSettingsDefaults() {
        String help = RailcollCli.commandLine().getSubcommands().get("run").getUsageMessage().replaceAll("\\s+", " ");
        assertTrue(help.contains("(default single)"), help);
        assertTrue(help.contains("(default 30000)"), help);
    }

    @Test
    void theRealCommandExitsWith2AndOneLineOnStderr() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                RailcollCli.class.getName(), "bench", "--sizes", "abc").redirectErrorStream(false).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the CLI did not exit");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(2, p.exitValue(), err);
        assertEquals("", out);
        List<String> lines = err.lines().filter(l -> !l.startsWith("WARNING:")).toList();
        assertEquals(1, lines.size(), err);
        assertTrue(lines.getFirst().startsWith("railcoll bench: Invalid value for option '--sizes': 'abc' is not a size"),
                lines.getFirst());
    }

    private static Map<String, String> environmentOf(String... args) {
        CommandLine cli = RailcollCli.commandLine();
        CommandLine.ParseResult parsed = cli.parseArgs(args);
        Object command = parsed.subcommand().commandSpec().userObject();
        return ((RunCommand) command).cluster.environment();
    }
}
