package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** Shared helpers of the cluster tests: the root check and looking at the machine with ip and tc. */
final class ClusterTests {
    private static final Shell SHELL = new Shell(Duration.ofSeconds(20));

    private ClusterTests() {
    }

    /** Skips the calling test class, saying why, where a testbed cannot run (not root, no iproute2). */
    static void assumeAvailable() {
        Availability availability = NetnsTestbed.available();
        if (!availability.available()) {
            System.out.println("cluster tests skipped: " + availability.reason());
        }
        assumeTrue(availability.available(), availability.reason());
    }

    /** Runs a command and returns its output; fails the test if it fails. */
    static String run(String... command) {
        return SHELL.run(Arrays.asList(command));
    }

    /** Every named network namespace starting with {@code prefix}. */
    static List<String> namespacesStartingWith(String prefix) {
        Tools tools = Tools.find();
        return NetnsTestbed.namespaces(SHELL, tools).stream().filter(n -> n.startsWith(prefix)).sorted().toList();
    }

    /** The namespaces of one testbed. */
    static List<String> namespacesOf(String tag) {
        return namespacesStartingWith(NamespaceNames.PREFIX + tag + "-");
    }

    /** Namespaces of every testbed this JVM started (their tags begin with its pid). */
    static List<String> namespacesOfThisJvm() {
        return namespacesStartingWith(NamespaceNames.PREFIX + ProcessHandle.current().pid() + "-");
    }
}
