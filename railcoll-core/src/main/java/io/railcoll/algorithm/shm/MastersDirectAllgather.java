package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.NodeOverlap;
import io.railcoll.schedule.NodeStep;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * The masters' part of {@code allgather.smp-direct-shm}: k-port Direct among the M node masters on whole nodes.
 * Master n holds its node's L_n blocks in RECV, in their final place (its ranks are consecutive); in step
 * s = 0..ceil((M-1)/k)-1 it puts them to the masters of nodes {@code n+sk+1 .. n+(s+1)k} (mod M) straight into the
 * same place of their RECV, and receives the step's k nodes before the next step, so k connections are busy at a
 * time. Every other rank's program is empty. Not an all-gather by itself (only masters end complete): the node
 * steps around it make it one. Not in the catalog. Stateless.
 *
 * <p><b>Overlap</b> (paper 000 sec. 5.2.2's refinement), from {@value #OVERLAP_MIN_BYTES} bytes of the largest
 * node's blocks ({@link #overlaps}): a node's blocks travel as pieces of whole blocks, at least
 * {@value #PIECE_MIN_BYTES} bytes and at most {@value #MAX_PIECES} of them (tag = piece number), and
 * {@link #layout} places the node's steps inside the master's program. The node's own blocks first: when a piece
 * is one block, the master puts its own block to the first step's masters straight from its SEND, then each other
 * local rank in turn broadcasts its block to the node (the master included) just before the master puts it on, so
 * the rails start at once and always have a piece queued, and last the master broadcasts its own block; with larger
 * pieces, a node all-gather before the first put.
 * Then a node broadcast of every received piece as soon as it has landed; a step's last piece only after the next
 * step's puts are posted, so the rails never wait for a copy.
 * Below that size, one message per node, and the node gather before and broadcast after: more node steps would cost
 * more synchronization than the overlap gains.
 */
final class MastersDirectAllgather implements Algorithm {
    static final String ID = "allgather.smp-direct-shm:masters";
    static final long OVERLAP_MIN_BYTES = 256 * 1024;
    static final long PIECE_MIN_BYTES = 256 * 1024;
    static final int MAX_PIECES = 8;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Collective collective() {
        return Collective.ALLGATHER;
    }

    /** Whether the masters overlap the node steps with their exchange for {@code shape}. */
    static boolean overlaps(Shape shape) {
        Placement p = shape.placement();
        int largest = 0;
        for (int node = 0; node < p.nodeCount(); node++) {
            largest = Math.max(largest, p.ranksOnNode(node));
        }
        return p.nodeCount() >= 2 && largest * shape.blockBytes() >= OVERLAP_MIN_BYTES;
    }

    /** Blocks per piece of node {@code node}'s blocks: all of them (one message per node) without overlap. */
    private static int blocksPerPiece(Shape shape, int node, boolean overlapped) {
        int ranks = shape.placement().ranksOnNode(node);
        if (!overlapped) {
            return ranks;
        }
        long b = shape.blockBytes();
        long byBytes = b >= PIECE_MIN_BYTES ? 1 : Radix.ceilDiv(PIECE_MIN_BYTES, b);
        return (int) Math.min(ranks, Math.max(byBytes, Radix.ceilDiv(ranks, MAX_PIECES)));
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        Placement placement = shape.placement();
        int node = placement.nodeOf(rank);
        if (placement.masterOf(node) != rank) {
            return new ProgramBuilder(rank).build();
        }
        return layout(shape, node).program();
    }

    /**
     * Node {@code node}'s master's program and, where the masters overlap ({@link #overlaps}), the node's steps at
     * their points in it (see the class comment). Without overlap the program is one message per node, step by step.
     */
    static Layout layout(Shape shape, int node) {
        Placement placement = shape.placement();
        boolean overlapped = overlaps(shape);
        long b = shape.blockBytes();
        int m = placement.nodeCount();
        int k = shape.ports();
        int master = placement.masterOf(node);
        int ownRanks = placement.ranksOnNode(node);
        int ownPer = blocksPerPiece(shape, node, overlapped);
        int ownPieces = (int) Radix.ceilDiv(ownRanks, ownPer);
        // With one block per piece, piece 0 is the master's own block: it leaves from SEND before the node step.
        boolean early = ownPer == 1 && overlapped;
        ProgramBuilder p = new ProgramBuilder(master);
        StepsAt steps = new StepsAt(p);
        if (!early) {
            steps.before(NodeStep.allgather(b, Buffer.RECV, master * b));
        }
        NodeStep deferred = null;
        long rounds = Radix.ceilDiv(m - 1, k);
        for (long s = 0; s < rounds; s++) {
            int first = (int) (s * k + 1);
            int last = (int) Math.min((s + 1) * k, m - 1);
            for (int piece = 0; piece < ownPieces; piece++) {
                if (early && s == 0 && piece > 0) {
                    // Local rank `piece` hands its block to the node (the master included) just before it leaves.
                    steps.now(NodeStep.broadcast(piece, Buffer.SEND, 0, Buffer.RECV, (master + piece) * b, b));
                }
                for (int d = first; d <= last; d++) {
                    int to = placement.masterOf((node + d) % m);
                    if (early && s == 0 && piece == 0) {
                        p.put(to, Buffer.SEND, 0, b, 0);
                    } else {
                        long start = (long) piece * ownPer * b;
                        long length = Math.min(ownPer, ownRanks - (long) piece * ownPer) * b;
                        p.put(to, Buffer.RECV, master * b + start, length, piece);
                    }
                }
            }
            if (early && s == 0) {
                // The master's own block last: no node-mate then waits on the master before it hands its own
                // block over, so no master waits on another node's master through its node-mates.
                steps.now(NodeStep.broadcast(0, Buffer.SEND, 0, Buffer.RECV, master * b, b));
            }
            if (deferred != null) {
                steps.now(deferred);
            }
            // Piece by piece across the step's sources, which arrive side by side; each piece is broadcast as soon
            // as it has landed, except the step's last, which waits for the next step's puts.
            deferred = null;
            int most = 0;
            for (int d = first; d <= last; d++) {
                int source = Math.floorMod(node - d, m);
                int per = blocksPerPiece(shape, source, overlapped);
                most = Math.max(most, (int) Radix.ceilDiv(placement.ranksOnNode(source), per));
            }
            for (int piece = 0; piece < most; piece++) {
                for (int d = first; d <= last; d++) {
                    int source = Math.floorMod(node - d, m);
                    int ranks = placement.ranksOnNode(source);
                    int per = blocksPerPiece(shape, source, overlapped);
                    if ((long) piece * per >= ranks) {
                        continue;
                    }
                    if (deferred != null) {
                        steps.now(deferred);
                    }
                    int sourceMaster = placement.masterOf(source);
                    long offset = (sourceMaster + (long) piece * per) * b;
                    long length = Math.min(per, ranks - (long) piece * per) * b;
                    p.recv(sourceMaster, piece, Buffer.RECV, offset, length);
                    deferred = NodeStep.broadcast(0, Buffer.RECV, offset, length);
                }
            }
        }
        steps.now(deferred);
        return new Layout(p.build(), steps.build());
    }

    /** Node steps, each placed after the op its builder has last received (or before the first). */
    private static final class StepsAt {
        private final ProgramBuilder program;
        private final List<NodeStep> steps = new ArrayList<>();
        private final List<Integer> points = new ArrayList<>();

        StepsAt(ProgramBuilder program) {
            this.program = program;
        }

        /** {@code step} before the program's first op. */
        void before(NodeStep step) {
            steps.add(step);
            points.add(-1);
        }

        /** {@code step} once the op added last has completed. */
        void now(NodeStep step) {
            steps.add(step);
            points.add(program.size() - 1);
        }

        NodeOverlap build() {
            return new NodeOverlap(steps, points.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** A master's program and its node's overlapped steps. */
    record Layout(RankProgram program, NodeOverlap overlap) {
    }

    @Override
    public String summary() {
        return "k-port Direct among node masters on whole nodes; the others idle";
    }
}
