package io.railcoll.launcher.testbed;

import java.util.List;

/**
 * The qdisc counters of one (node, rail) link, read from both ends at one moment.
 *
 * @param node             the node
 * @param rail             the rail
 * @param fromNode         qdiscs on the node's end: traffic the node sent into the rail
 * @param toNode           qdiscs on the switch's end: traffic the rail delivered towards the node
 */
public record LinkStats(int node, int rail, List<QdiscStats> fromNode, List<QdiscStats> toNode) {
    public LinkStats {
        fromNode = List.copyOf(fromNode);
        toNode = List.copyOf(toNode);
    }

    /** Bytes sent by the node on this rail (root qdisc of its end; 0 with no limit and no netem). */
    public long bytesFromNode() {
        return root(fromNode).sentBytes();
    }

    /** Bytes the rail passed towards the node (after any netem loss). */
    public long bytesToNode() {
        return root(toNode).sentBytes();
    }

    /** Every packet dropped on this link in either direction, netem's intended loss included. */
    public long drops() {
        return root(fromNode).drops() + root(toNode).drops();
    }

    /**
     * Packets dropped because a rate limiter's queue was full: the figure a benchmark must report. The queue
     * is the tbf's, or with an emulated reordering impairment the fifos under the switch end's htb classes.
     */
    public long limiterDrops() {
        long drops = 0;
        for (String kind : new String[] {"tbf", "bfifo", "pfifo"}) {
            drops += kindDrops(fromNode, kind) + kindDrops(toNode, kind);
        }
        return drops;
    }

    private static QdiscStats root(List<QdiscStats> qdiscs) {
        return qdiscs.stream().filter(QdiscStats::isRoot).findFirst()
                .orElse(new QdiscStats("", "none", "", "root", 0, 0, 0, 0));
    }

    private static long kindDrops(List<QdiscStats> qdiscs, String kind) {
        return qdiscs.stream().filter(q -> q.kind().equals(kind)).mapToLong(QdiscStats::drops).sum();
    }
}
