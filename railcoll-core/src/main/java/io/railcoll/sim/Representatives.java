package io.railcoll.sim;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which ranks the simulator runs, and how every other rank maps onto them.
 *
 * <p>{@link #all} runs every rank. {@link #nodeSymmetric} runs only the ranks of node 0, for a schedule that looks
 * the same from every node: on a uniform placement with ranks numbered node by node (L per node), rank
 * {@code x + dL} runs rank x's program with every peer shifted by dL (mod N) and the same tags. Then every node's
 * timeline is node 0's, and a message from rank p to rank q happens exactly when its image shifted onto node 0's
 * sender, {@code p - node(p) L -> q - node(p) L}, does; node 0 receives the images of every message any node sends.
 * So simulating L ranks (and node 0's links, ports and cores) gives the time of all N; it is exact up to the order in
 * which the simulator breaks ties and to copy lengths (see {@link #difference}). Immutable.
 */
final class Representatives {
    private final int size;
    private final int perNode;
    private final boolean symmetric;
    private final String note;

    private Representatives(int size, int perNode, boolean symmetric, String note) {
        this.size = size;
        this.perNode = perNode;
        this.symmetric = symmetric;
        this.note = note;
    }

    static Representatives all(Placement placement) {
        return new Representatives(placement.size(), placement.size(), false, "");
    }

    /** The same, remembering why the node-symmetric shortcut was not taken. */
    Representatives because(String whyNotSymmetric) {
        return new Representatives(size, perNode, symmetric, whyNotSymmetric);
    }

    /** {@code all 16 ranks (not node-symmetric: one node)} or {@code node 0's 64 of 65536 ranks}. */
    String describe() {
        if (symmetric) {
            return "node 0's " + perNode + " of " + size + " ranks, node-symmetric";
        }
        return "all " + size + " ranks" + (note.isEmpty() ? "" : ", not node-symmetric: " + note);
    }

    /**
     * The node-symmetric representatives of {@code algorithm} on {@code shape}, or why it is not node-symmetric.
     * The symmetry is checked, not assumed: the programs of sample ranks (local ranks first, middle and last) on
     * sample nodes (1, middle and last) must equal their node-0 counterparts shifted. A sample can miss an asymmetry
     * elsewhere; the check is there to turn away schedules that treat a root or a node specially, which show it on
     * these ranks.
     */
    static Representatives nodeSymmetric(Algorithm algorithm, Shape shape, StringBuilder whyNot) {
        Placement p = shape.placement();
        int nodes = p.nodeCount();
        if (nodes < 2 || !p.isUniform()) {
            whyNot.append(nodes < 2 ? "one node" : "uneven placement");
            return null;
        }
        int perNode = p.ranksOnNode(0);
        for (int r = 0; r < p.size(); r++) {
            if (p.nodeOf(r) != r / perNode) {
                whyNot.append("ranks not numbered node by node");
                return null;
            }
        }
        TreeSet<Integer> locals = new TreeSet<>(List.of(0, perNode / 2, perNode - 1));
        TreeSet<Integer> shifts = new TreeSet<>(List.of(1, nodes / 2, nodes - 1));
        for (int local : locals) {
            RankProgram base = algorithm.program(shape, local);
            for (int shift : shifts) {
                int other = local + shift * perNode;
                Optional<String> difference = difference(base, algorithm.program(shape, other), shift * perNode,
                        p.size());
                if (difference.isPresent()) {
                    whyNot.append("rank ").append(other).append(" is not rank ").append(local).append(" shifted by ")
                            .append(shift).append(" nodes: ").append(difference.get());
                    return null;
                }
            }
        }
        return new Representatives(p.size(), perNode, true, "");
    }

    /**
     * How {@code other} differs from {@code base} shifted by {@code shift} ranks: puts and receives (peer, tag,
     * length) must match in order, with a copy wherever the other has one. Copy lengths may differ, because where a
     * rank's blocks wrap around decides how much it copies (Bruck's final shift); node 0's copies then stand for
     * every node's, an approximation bounded by the difference in copy time.
     */
    private static Optional<String> difference(RankProgram base, RankProgram other, int shift, int size) {
        List<Op> a = charged(base.ops());
        List<Op> b = charged(other.ops());
        if (a.size() != b.size()) {
            return Optional.of(b.size() + " charged ops, expected " + a.size());
        }
        for (int i = 0; i < a.size(); i++) {
            boolean same = switch (a.get(i)) {
                case Op.Put x -> b.get(i) instanceof Op.Put y && y.peer() == (x.peer() + shift) % size
                        && y.tag() == x.tag() && y.length() == x.length();
                case Op.Recv x -> b.get(i) instanceof Op.Recv y && y.peer() == (x.peer() + shift) % size
                        && y.tag() == x.tag() && y.length() == x.length();
                // Copy lengths may differ: a rank whose blocks wrap around copies more (Bruck's final shift).
                case Op.Copy x -> b.get(i) instanceof Op.Copy;
                case Op.Reduce x -> b.get(i) instanceof Op.Reduce y && y.length() == x.length();
                // Node steps stay within a node: the same op with the same local peer.
                case Op.NodeWrite x -> b.get(i) instanceof Op.NodeWrite y && y.length() == x.length();
                case Op.NodeRead x -> b.get(i) instanceof Op.NodeRead y && y.length() == x.length();
                case Op.Publish x -> b.get(i) instanceof Op.Publish y && y.flag() == x.flag()
                        && y.length() == x.length();
                case Op.PeerRead x -> b.get(i) instanceof Op.PeerRead y && y.length() == x.length()
                        && y.peer() == (x.peer() + shift) % size;
                case Op.PeerWrite x -> b.get(i) instanceof Op.PeerWrite y && y.length() == x.length()
                        && y.peer() == (x.peer() + shift) % size;
                case Op.AwaitFlag x -> b.get(i) instanceof Op.AwaitFlag y && y.flag() == x.flag()
                        && y.count() == x.count() && y.peer() == (x.peer() + shift) % size && y.length() == x.length();
                // One root for the whole group: a node shift does not map its sender onto another node's.
                case Op.Multicast x -> false;
            };
            if (!same) {
                return Optional.of("charged op " + i + " is " + b.get(i) + ", expected the image of " + a.get(i));
            }
        }
        return Optional.empty();
    }

    /** The ops with every run of consecutive copies replaced by one copy of their total length. */
    private static List<Op> charged(List<Op> ops) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            if (op instanceof Op.Copy c && !out.isEmpty() && out.getLast() instanceof Op.Copy last) {
                out.set(out.size() - 1, new Op.Copy(Buffer.TEMP, 0, Buffer.TEMP, 0, last.length() + c.length()));
            } else {
                out.add(op);
            }
        }
        return out;
    }

    boolean symmetric() {
        return symmetric;
    }

    /** How many ranks are simulated; representative i is rank i. */
    int count() {
        return symmetric ? perNode : size;
    }

    /** The representative whose timeline {@code rank} follows. */
    int representative(int rank) {
        return symmetric ? rank % perNode : rank;
    }

    /** How many ranks {@code rank} lies beyond its representative (a multiple of L; 0 when all ranks run). */
    int offset(int rank) {
        return symmetric ? rank - rank % perNode : 0;
    }

    /** {@code rank} moved back by {@code offset} ranks, modulo N. */
    int shiftBack(int rank, int offset) {
        return Math.floorMod(rank - offset, size);
    }
}
