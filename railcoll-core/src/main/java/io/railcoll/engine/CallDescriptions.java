package io.railcoll.engine;

import io.railcoll.CollectiveTimeoutException;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.topology.Placement;
import io.railcoll.transport.Transport;

import java.util.BitSet;
import java.util.Locale;

/**
 * How one engine's failures name its calls: which collective, its number, algorithm, size and root, and what the call
 * was waiting for when it failed (a receive and how much of it arrived, a node-mate's raise and what its word shows,
 * the node-buffer gate, its deliveries). The engine decides when a call fails; this class only words it, from the
 * call's state. Read-only on that state, on failure paths only.
 */
final class CallDescriptions {
    private final String who;
    private final int rank;
    private final Placement placement;
    private final NodeSteps nodeSteps;
    /** For each peer, the transport that carries traffic to it; null until the engine's transports are attached. */
    private Transport[] route;

    CallDescriptions(String who, int rank, Placement placement, NodeSteps nodeSteps) {
        this.who = who;
        this.rank = rank;
        this.placement = placement;
        this.nodeSteps = nodeSteps;
    }

    void attach(Transport[] route) {
        this.route = route;
    }

    /** The call: "who: collective #seq (algorithm, b-byte blocks[, root r][, purpose])". */
    String describe(Posting posting) {
        Collective c = posting.collective;
        return who + ": " + c.id() + " #" + posting.heldSeq + " (" + posting.program.algorithmId + ", "
                + posting.shape.blockBytes() + "-byte blocks"
                + (c == Collective.BROADCAST || c == Collective.GATHER ? ", root " + posting.shape.root() : "")
                + (posting.purpose != null ? ", " + posting.purpose : "") + ")";
    }

    /** For failure messages: what {@code p} waits for, or "" when no call is in flight. Best effort from any thread. */
    String awaiting(Posting p) {
        if (p == null) {
            return "";
        }
        CompiledProgram prog = p.program;
        int op = p.nextOp;
        if (op >= prog.ops()) {
            return "; this rank awaited the delivery of " + p.sends.pending() + " outgoing frame(s)";
        }
        if (prog.kind[op] != CompiledProgram.RECV) {
            return "";
        }
        int s = prog.slot[op];
        return "; this rank awaited " + prog.slotLen[s] + " bytes (tag " + prog.slotTag[s] + ") from rank "
                + prog.slotPeer[s] + ", " + p.slotArrived(s) + " of them had arrived";
    }

    /**
     * The time-out of call {@code p} at {@code now}: the collective, its number, what it awaited and the ranks still
     * missing, then {@code silentPeers} (the transports' word on peers not heard from).
     */
    CollectiveTimeoutException timedOut(Posting p, long now, String silentPeers) {
        CompiledProgram prog = p.program;
        StringBuilder missing = new StringBuilder();
        BitSet seen = new BitSet(placement.size());
        for (int s = 0; s < prog.slots; s++) {
            if (!p.slotComplete(s) && !seen.get(prog.slotPeer[s])) {
                seen.set(prog.slotPeer[s]);
                missing.append(missing.isEmpty() ? "" : ", ").append(prog.slotPeer[s]);
            }
        }
        String waiting;
        if (p.opsDone()) {
            waiting = "waiting for " + p.sends.pending() + " outgoing frames to be delivered (copied out over shared"
                    + " memory, acknowledged by the receiver on the rails): receivers not reading?";
        } else if (prog.kind[p.nextOp] == CompiledProgram.RECV) {
            int s = prog.slot[p.nextOp];
            int peer = prog.slotPeer[s];
            waiting = "waiting for " + prog.slotLen[s] + " bytes (tag " + prog.slotTag[s] + ") from rank " + peer
                    + " (node " + placement.nodeOf(peer) + ") on " + route[peer] + "; " + p.slotArrived(s)
                    + " bytes of it had arrived";
        } else if (prog.kind[p.nextOp] == CompiledProgram.AWAIT) {
            int local = prog.peer[p.nextOp];
            long shows = nodeSteps.flag(local, prog.tag[p.nextOp]);
            waiting = "waiting for rank " + nodeMate(local) + " to raise its node flag " + prog.tag[p.nextOp]
                    + " for the " + prog.length[p.nextOp] + "th time in this call (it shows " + flagWord(shows)
                    + "); rank " + nodeMate(local) + "'s node words 0-" + NodeBuffer.FLAGS + " show " + nodeWords(local)
                    + ", this rank's " + nodeWords(nodeSteps.localRank());
            missing.setLength(0);
            missing.append(nodeMate(local));
        } else if (prog.gated(p.nextOp)) {
            waiting = "waiting to write node-buffer half " + (p.heldSeq & 1) + (prog.kind[p.nextOp]
                    == CompiledProgram.PUBLISH ? " (a node flag's payload area of that parity)" : "")
                    + " until every node-mate finished call #" + p.nodeGateSeq + " (the last that used that half),"
                    + " or behind an earlier collective's node steps";
        } else if (prog.kind[p.nextOp] == CompiledProgram.PUBLISH) {
            waiting = "waiting to raise a node flag behind an earlier collective's node steps";
        } else {
            waiting = "waiting to put to rank " + prog.peer[p.nextOp] + " behind an earlier collective still in flight";
        }
        return new CollectiveTimeoutException(describe(p) + " timed out after " + seconds(now - p.startNs) + " "
                + waiting + (missing.isEmpty() ? "" : "; ranks missing: " + missing) + silentPeers);
    }

    /** A node word's value as "call s, count c" ({@code NodeSteps}: {@code s << 20 | c}). */
    private static String flagWord(long value) {
        return "call " + (value >>> 20) + ", count " + (value & 0xfffff);
    }

    /**
     * Local rank {@code local}'s node words, flags 0-3 and the done word, each as "call.count": how far into its call
     * a node-mate that has not raised the awaited flag is (still in this call, or in another), and what this rank
     * itself raised.
     */
    private String nodeWords(int local) {
        StringBuilder sb = new StringBuilder("[");
        for (int w = 0; w <= NodeBuffer.FLAGS; w++) {
            long v = nodeSteps.flag(local, w);
            sb.append(w == 0 ? "" : ", ").append(v >>> 20).append('.').append(v & 0xfffff);
        }
        return sb.append(']').toString();
    }

    /** The rank of local rank {@code localRank} of this rank's node. */
    int nodeMate(int localRank) {
        return placement.ranksOf(placement.nodeOf(rank))[localRank];
    }

    static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
