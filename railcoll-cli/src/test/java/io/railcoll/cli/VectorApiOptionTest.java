package io.railcoll.cli;

import io.railcoll.launcher.VectorApiModule;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM options railcoll's commands give their ranks (decision 0233): the Vector API's module first, unless
 * {@code --vector-api off}, a JVM without C2, or the user's own {@code --add-modules} of it. Real ranks:
 * {@code UserProgramSystemTest}.
 */
class VectorApiOptionTest {

    @Test
    void theModuleIsAddedByDefaultBeforeTheUsersOptions() {
        assertTrue(VectorApiModule.available(), "a JDK 25 has the module");
        RunCommand run = parse("run", "--jvm-option=-Xmx1g", "Main");
        assertEquals(List.of(VectorApiModule.OPTION, "-Xmx1g"), run.vector.jvmOptions(List.of("-Xmx1g")));
        assertEquals(List.of(VectorApiModule.OPTION), run.vector.jvmOptions(List.of()));
    }

    @Test
    void offAJvmWithoutC2AndTheUsersOwnRequestAddNothing() {
        RunCommand off = parse("run", "--vector-api", "off", "Main");
        assertEquals(List.of("-Xmx1g"), off.vector.jvmOptions(List.of("-Xmx1g")));
        RunCommand on = parse("run", "--vector-api=on", "Main");
        assertEquals(List.of("-XX:TieredStopAtLevel=1"), on.vector.jvmOptions(List.of("-XX:TieredStopAtLevel=1")));
        assertEquals(List.of("-Xint"), on.vector.jvmOptions(List.of("-Xint")));
        assertEquals(List.of("--add-modules", "jdk.incubator.vector"),
                on.vector.jvmOptions(List.of("--add-modules", "jdk.incubator.vector")));
    }

    @Test
    void benchAndAppTakeTheOptionToo() {
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs("--vector-api=off");
        assertEquals(List.of(), bench.vector.jvmOptions(List.of()));
        AppCommand app = new AppCommand();
        new CommandLine(app).parseArgs("kmeans");
        assertEquals(List.of(VectorApiModule.OPTION), app.vector.jvmOptions(List.of()));
    }

    @Test
    void aValueOtherThanOnOrOffIsRefused() {
        assertThrows(CommandLine.ParameterException.class, () -> parse("run", "--vector-api=yes", "Main"));
    }

    private static RunCommand parse(String... args) {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
        return run;
    }
}
