package io.railcoll.schedule;

/**
 * A message of a schedule as the checker matches it: a Put of {@code sender} to {@code receiver} with {@code tag}
 * meets the Recv of {@code receiver} from {@code sender} with the same tag. Package-private key of the
 * {@link ScheduleChecker}'s and {@link Traffic}'s maps.
 */
record MessageKey(int sender, int receiver, int tag) {
    /**
     * Spread over every bit: the record's own hash (31-based) maps a 64-rank schedule's keys onto few buckets, and
     * {@code equals} along long chains was a twentieth of the schedule-property tests' processor time (JFR, decision
     * 0161).
     */
    @Override
    public int hashCode() {
        long h = ((long) sender << 48 ^ (long) receiver << 32 ^ (tag & 0xffffffffL)) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }
}
