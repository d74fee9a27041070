package io.railcoll.schedule;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages of a collective without their buffers: per rank, its sends and receives in program order. It is
 * what {@link CostTerms} are measured on: the {@link ScheduleChecker} derives it from the programs, and an algorithm
 * whose critical path has no short closed form may describe its design as a {@code Traffic} and cost that, so the
 * checker still compares two independent descriptions.
 *
 * <p>The cost model (program-order k-port Hockney): a send starts when (a) every receive before it in its rank's
 * program has arrived, (b) its rank's send k positions earlier has finished (k send ports) and (c) the send matched
 * by the receiver's receive k positions earlier has finished (k receive ports). It lasts one step and
 * {@code bytes} bytes. Steps and beta bytes are the two longest paths. Not thread-safe.
 */
public final class Traffic {

    /** One entry of a rank's sequence. */
    public sealed interface Event {
    }

    public record Send(int peer, int tag, long bytes) implements Event {
    }

    public record Receive(int peer, int tag) implements Event {
    }

    private final int size;
    private final List<List<Event>> events;

    public Traffic(int size) {
        this.size = size;
        this.events = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            events.add(new ArrayList<>());
        }
    }

    /** The traffic of complete programs: their puts and receives in order, copies and reductions dropped. */
    public static Traffic of(List<RankProgram> programs) {
        Traffic traffic = new Traffic(programs.size());
        for (int r = 0; r < programs.size(); r++) {
            for (Op op : programs.get(r).ops()) {
                switch (op) {
                    case Op.Put p -> traffic.send(r, p.peer(), p.tag(), p.length());
                    case Op.Recv v -> traffic.receive(r, v.peer(), v.tag());
                    case Op.Copy c -> {
                    }
                    case Op.Reduce x -> {
                    }
                    // Node steps move no message: their copies and flags are priced by the simulator.
                    case Op.NodeWrite w -> {
                    }
                    case Op.NodeRead w -> {
                    }
                    case Op.Publish f -> {
                    }
                    case Op.AwaitFlag a -> {
                    }
                    // One stream the network copies: no put, priced by the simulator (decision 0146).
                    case Op.Multicast m -> {
                    }
                    // Single-copy steps too: one copy by the kernel, which the simulator prices.
                    case Op.PeerRead x -> {
                    }
                    case Op.PeerWrite x -> {
                    }
                }
            }
        }
        return traffic;
    }

    public Traffic send(int rank, int peer, int tag, long bytes) {
        events.get(rank).add(new Send(peer, tag, bytes));
        return this;
    }

    public Traffic receive(int rank, int peer, int tag) {
        events.get(rank).add(new Receive(peer, tag));
        return this;
    }

    public int size() {
        return size;
    }

    /**
     * The cost terms of this traffic.
     *
     * @throws IllegalStateException if a send or receive has no partner, or the order of sends and receives
     *     leaves the port model without a schedule (a cycle), with the ranks involved
     */
    public CostTerms cost(Placement placement, int ports, String formula) {
        if (placement.size() != size) {
            throw new IllegalArgumentException("placement has " + placement.size() + " ranks, traffic " + size);
        }
        Measured m = measure(ports);
        LinkTally tally = new LinkTally(placement);
        for (int r = 0; r < size; r++) {
            for (Event e : events.get(r)) {
                if (e instanceof Send s) {
                    tally.message(r, s.peer(), s.bytes());
                }
            }
        }
        return tally.toCost(m.steps, m.betaBytes, formula);
    }

    private static final class SendNode {
        final int rank;
        final long bytes;
        ReceiveNode match;
        long endSteps = -1;
        long endBytes;

        SendNode(int rank, long bytes) {
            this.rank = rank;
            this.bytes = bytes;
        }
    }

    private static final class ReceiveNode {
        final int rank;
        final int position;
        SendNode match;

        ReceiveNode(int rank, int position) {
            this.rank = rank;
            this.position = position;
        }
    }

    private record Measured(int steps, long betaBytes) {
    }

    private Measured measure(int ports) {
        List<List<Object>> nodes = new ArrayList<>(size);
        List<List<SendNode>> sendsByRank = new ArrayList<>(size);
        List<List<ReceiveNode>> receivesByRank = new ArrayList<>(size);
        Map<MessageKey, SendNode> sends = new HashMap<>();
        for (int r = 0; r < size; r++) {
            List<Object> rankNodes = new ArrayList<>();
            List<SendNode> rankSends = new ArrayList<>();
            List<ReceiveNode> rankReceives = new ArrayList<>();
            for (Event e : events.get(r)) {
                if (e instanceof Send s) {
                    SendNode node = new SendNode(r, s.bytes());
                    if (sends.put(new MessageKey(r, s.peer(), s.tag()), node) != null) {
                        throw new IllegalStateException("rank " + r + " sends twice to rank " + s.peer() + " with tag " + s.tag());
                    }
                    rankNodes.add(node);
                    rankSends.add(node);
                } else {
                    ReceiveNode node = new ReceiveNode(r, rankReceives.size());
                    rankNodes.add(node);
                    rankReceives.add(node);
                }
            }
            nodes.add(rankNodes);
            sendsByRank.add(rankSends);
            receivesByRank.add(rankReceives);
        }
        for (int r = 0; r < size; r++) {
            List<Event> rankEvents = events.get(r);
            List<Object> rankNodes = nodes.get(r);
            for (int i = 0; i < rankEvents.size(); i++) {
                if (rankEvents.get(i) instanceof Receive v) {
                    SendNode send = sends.remove(new MessageKey(v.peer(), r, v.tag()));
                    if (send == null) {
                        throw new IllegalStateException("rank " + r + " receives from rank " + v.peer() + " with tag "
                                + v.tag() + " but that rank sends no such message");
                    }
                    ReceiveNode receive = (ReceiveNode) rankNodes.get(i);
                    receive.match = send;
                    send.match = receive;
                }
            }
        }
        if (!sends.isEmpty()) {
            Map.Entry<MessageKey, SendNode> e = sends.entrySet().iterator().next();
            throw new IllegalStateException("rank " + e.getKey().sender() + " sends to rank " + e.getKey().receiver()
                    + " with tag " + e.getKey().tag() + " but that rank never receives it");
        }

        int[] next = new int[size];
        long[] readySteps = new long[size];
        long[] readyBytes = new long[size];
        int[] sendPosition = new int[size];
        long steps = 0;
        long beta = 0;
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int r = 0; r < size; r++) {
                List<Object> rankNodes = nodes.get(r);
                while (next[r] < rankNodes.size()) {
                    Object node = rankNodes.get(next[r]);
                    if (node instanceof ReceiveNode v) {
                        if (v.match.endSteps < 0) {
                            break;
                        }
                        readySteps[r] = Math.max(readySteps[r], v.match.endSteps);
                        readyBytes[r] = Math.max(readyBytes[r], v.match.endBytes);
                    } else {
                        SendNode s = (SendNode) node;
                        SendNode receivePortPredecessor = null;
                        if (s.match.position >= ports) {
                            receivePortPredecessor =
                                    receivesByRank.get(s.match.rank).get(s.match.position - ports).match;
                            if (receivePortPredecessor.endSteps < 0) {
                                break;
                            }
                        }
                        long startSteps = readySteps[r];
                        long startBytes = readyBytes[r];
                        int position = sendPosition[r]++;
                        if (position >= ports) {
                            SendNode sendPortPredecessor = sendsByRank.get(r).get(position - ports);
                            startSteps = Math.max(startSteps, sendPortPredecessor.endSteps);
                            startBytes = Math.max(startBytes, sendPortPredecessor.endBytes);
                        }
                        if (receivePortPredecessor != null) {
                            startSteps = Math.max(startSteps, receivePortPredecessor.endSteps);
                            startBytes = Math.max(startBytes, receivePortPredecessor.endBytes);
                        }
                        s.endSteps = startSteps + 1;
                        s.endBytes = startBytes + s.bytes;
                        steps = Math.max(steps, s.endSteps);
                        beta = Math.max(beta, s.endBytes);
                    }
                    next[r]++;
                    progress = true;
                }
            }
        }
        StringBuilder stuck = new StringBuilder();
        for (int r = 0; r < size; r++) {
            if (next[r] < nodes.get(r).size()) {
                if (stuck.length() > 200) {
                    stuck.append(" ...");
                    break;
                }
                stuck.append(stuck.isEmpty() ? "" : "; ").append("rank ").append(r).append(" at event ").append(next[r]);
            }
        }
        if (!stuck.isEmpty()) {
            throw new IllegalStateException("no k-port schedule: the order of sends and receives forms a cycle ("
                    + stuck + "); a rank's receives must be listed in the order their messages can arrive");
        }
        if (steps > Integer.MAX_VALUE) {
            throw new IllegalStateException("more than 2^31 steps");
        }
        return new Measured((int) steps, beta);
    }
}
