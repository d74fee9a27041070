package io.railcoll.schedule;

/** Thrown by {@link ScheduleChecker.Report#orThrow()}: a schedule broke a rule; the message lists every violation. */
public final class ScheduleViolationException extends IllegalStateException {
    public ScheduleViolationException(String message) {
        super(message);
    }
}
