package io.railcoll.systemtest;

import io.railcoll.launcher.testbed.Availability;
import io.railcoll.launcher.testbed.NetnsTestbed;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The network-namespace testbed's precondition, shared by the tests that build one. */
final class Testbeds {
    private Testbeds() {
    }

    /**
     * Skips the calling tests (a JUnit assumption) when this host cannot build a testbed (not root, no {@code ip}
     * or {@code tc}), saying on stdout which tests and why, so a CI log shows the skip; returns what was found.
     */
    static Availability assumeAvailable(String tests) {
        Availability a = NetnsTestbed.available();
        if (!a.available()) {
            System.out.println(tests + " skipped: " + a.reason());
        }
        assumeTrue(a.available(), a.reason());
        return a;
    }
}
