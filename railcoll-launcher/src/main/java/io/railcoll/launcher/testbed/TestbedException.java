package io.railcoll.launcher.testbed;

/**
 * Anything that went wrong building, changing or removing a testbed: missing privileges, a command that
 * failed, leftovers that could not be removed. Secondary failures during clean-up are attached as
 * suppressed exceptions.
 */
public class TestbedException extends RuntimeException {
    public TestbedException(String message) {
        super(message);
    }

    public TestbedException(String message, Throwable cause) {
        super(message, cause);
    }
}
