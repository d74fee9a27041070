package io.railcoll.launcher;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which JVM options ask for the Vector API's module, which leave the JVM without C2, and that a rank's standard error
 * loses exactly the JVM's one incubator line and nothing else (decision 0233). The same on real ranks:
 * {@code NodeAllreduceSystemTest} and {@code UserProgramSystemTest}.
 */
class VectorApiModuleTest {

    @Test
    void theModuleIsRequestedByEitherFormOfAddModulesThatListsIt() {
        assertTrue(VectorApiModule.requested(List.of(VectorApiModule.OPTION)));
        assertTrue(VectorApiModule.requested(List.of("-Xmx1g", "--add-modules", "jdk.incubator.vector")));
        assertTrue(VectorApiModule.requested(List.of("--add-modules=java.sql, jdk.incubator.vector")));
        assertTrue(VectorApiModule.requested(List.of(" --add-modules=jdk.incubator.vector ")));
        assertFalse(VectorApiModule.requested(List.of()));
        assertFalse(VectorApiModule.requested(List.of("--add-modules=java.sql")));
        assertFalse(VectorApiModule.requested(List.of("--add-modules")));
        assertFalse(VectorApiModule.requested(List.of("-Djdk.incubator.vector=1", "jdk.incubator.vector")));
        assertFalse(VectorApiModule.requested(List.of("--add-modules=jdk.incubator.vectorx")));
    }

    @Test
    void onlyAJvmWithoutC2IsWithoutC2() {
        assertFalse(VectorApiModule.withoutC2(List.of()));
        assertFalse(VectorApiModule.withoutC2(List.of("-Xmx1g", "-XX:-TieredCompilation")));
        assertFalse(VectorApiModule.withoutC2(List.of("-XX:TieredStopAtLevel=4")));
        assertFalse(VectorApiModule.withoutC2(List.of("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4")));
        assertTrue(VectorApiModule.withoutC2(List.of("-XX:TieredStopAtLevel=1")));
        assertTrue(VectorApiModule.withoutC2(List.of("-XX:TieredStopAtLevel=3")));
        assertTrue(VectorApiModule.withoutC2(List.of("-XX:TieredStopAtLevel=0")));
        assertTrue(VectorApiModule.withoutC2(List.of("-Xint")));
        assertTrue(VectorApiModule.withoutC2(List.of("-Xint", "-XX:TieredStopAtLevel=4")));
    }

    @Test
    void aRankStartedWithTheModuleLosesTheJvmsLineOnceAndNothingElse() {
        List<String> stderr = List.of(
                "OpenJDK 64-Bit Server VM warning: something else the JVM says",
                VectorApiModule.WARNING,
                "WARNING: Using incubator modules: jdk.incubator.vector, jdk.incubator.foo",
                "railcoll WARNING: rank 1: rail 1 is down",
                " " + VectorApiModule.WARNING,
                VectorApiModule.WARNING,
                "FAILED: io.railcoll.PeerLostException: rank 0: lost rank 1");
        List<String> expected = new ArrayList<>(stderr);
        expected.remove(1);
        assertEquals(expected, forwarded(stderr, true));
        assertEquals(stderr, forwarded(stderr, false), "a rank started without the module keeps every line");
    }

    private static List<String> forwarded(List<String> lines, boolean requested) {
        VectorApiModule.StderrFilter filter = new VectorApiModule.StderrFilter(requested);
        List<String> kept = new ArrayList<>();
        for (String line : lines) {
            if (!filter.drops(line)) {
                kept.add(line);
            }
        }
        return kept;
    }
}
