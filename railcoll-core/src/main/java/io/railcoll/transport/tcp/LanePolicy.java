package io.railcoll.transport.tcp;

import java.util.concurrent.TimeUnit;

/**
 * When a rail connection (lane) must show life and when it is given up. Every driver writes an ACK on a lane that
 * has sent nothing for {@code heartbeatNs}, so a healthy lane never stays quiet longer than that; a lane that has
 * heard nothing for {@code timeoutNs} is dead (an interface that went down does not reset a TCP connection, so
 * silence is the only sign). A lane paused on a frame of a collective not posted yet does not read, so it is not
 * judged by silence: its peer, which keeps hearing this side's heartbeats, judges it instead. A silent lane is given
 * up only while its peer is heard on another lane: when every lane to a peer is silent, the peer process is more
 * likely stopped or descheduled than every rail down at once, and the collective deadline decides (decision 0040).
 *
 * <p>Pure: times are passed in, so the rule is tested without sleeping. Immutable.
 *
 * @param timeoutNs   silence after which a lane is dead ({@code RAILCOLL_RAIL_TIMEOUT_MS})
 * @param heartbeatNs longest quiet spell on a healthy lane (an eighth of the time-out, at least 1 ms)
 */
record LanePolicy(long timeoutNs, long heartbeatNs) {
    LanePolicy {
        if (timeoutNs <= 0 || heartbeatNs <= 0 || heartbeatNs >= timeoutNs) {
            throw new IllegalArgumentException("need 0 < heartbeat < timeout, got " + heartbeatNs + " and " + timeoutNs);
        }
    }

    static LanePolicy forTimeout(long timeoutNs) {
        return new LanePolicy(timeoutNs, Math.max(TimeUnit.MILLISECONDS.toNanos(1), timeoutNs / 8));
    }

    boolean heartbeatDue(long lastSentNs, long nowNs) {
        return nowNs - lastSentNs >= heartbeatNs;
    }

    boolean silent(long lastHeardNs, long nowNs) {
        return nowNs - lastHeardNs > timeoutNs;
    }
}
