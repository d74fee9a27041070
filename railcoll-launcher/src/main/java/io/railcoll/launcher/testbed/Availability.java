package io.railcoll.launcher.testbed;

/**
 * Whether a testbed can be started on this machine, and if not, a sentence that says why and what to do.
 *
 * @param available true if {@link NetnsTestbed#start} can be expected to work
 * @param reason    empty when available, else the reason to show the user
 */
public record Availability(boolean available, String reason) {
    static Availability yes() {
        return new Availability(true, "");
    }

    static Availability no(String reason) {
        return new Availability(false, reason);
    }
}
