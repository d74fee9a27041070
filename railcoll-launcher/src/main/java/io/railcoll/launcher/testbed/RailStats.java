package io.railcoll.launcher.testbed;

/**
 * One rail's qdisc counters summed over every node's link, read one link after another (so not one
 * atomic snapshot while traffic flows).
 *
 * @param rail          the rail
 * @param bytesSent     bytes the nodes sent into the rail
 * @param bytesDelivered bytes the rail passed towards nodes (a multicast packet counts once per receiver)
 * @param drops         every dropped packet, netem's intended loss included
 * @param limiterDrops  packets dropped because a rate limiter's queue was full
 */
public record RailStats(int rail, long bytesSent, long bytesDelivered, long drops, long limiterDrops) {
}
