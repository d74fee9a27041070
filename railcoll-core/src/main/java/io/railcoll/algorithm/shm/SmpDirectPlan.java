package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * What one node does in {@code allgather.smp-direct-shm} for one shape, the same for every rank of the node: the
 * pieces its master puts and receives among the masters, and the node-buffer hand-offs (items) by which the node's
 * ranks share every block. Pure; built per program.
 *
 * <p><b>Pieces.</b> A node's blocks are consecutive in RECV. Without overlap a node's blocks travel as one message
 * (tag 0). With overlap ({@link #overlapped}, from {@value #OVERLAP_MIN_BYTES} bytes of the largest node's blocks)
 * they travel as pieces of whole blocks, at least {@value #PIECE_MIN_BYTES} bytes and at most {@value #MAX_PIECES}
 * of them (tag = piece number), so the node copies one piece out while the next is on the wire (paper 000 sec. 5.2.2,
 * decision 0013). Master n, in step s = 0..ceil((M-1)/k)-1, puts its pieces to the masters of nodes
 * n+sk+1..n+(s+1)k (mod M) and receives, piece by piece across the step's sources, theirs.
 *
 * <p><b>Items.</b> Every block of the node (written by its own rank from SEND) and every received piece (written by
 * the master from RECV) passes through the node buffer once and is read by every other rank of the node into its
 * final place in RECV. The items are in one order every rank of the node follows: the node's blocks by local rank,
 * then the received pieces in the master's order of receipt. Where the whole result fits the node buffer
 * ({@link #whole}), an item sits in the node buffer at its RECV offset and nothing is reused; else items are chunks
 * of at most {@value #CHUNK_BYTES} bytes that go round {@link #slots} slots, and the writer of item j waits until
 * every reader of item j - slots has drained it.
 */
final class SmpDirectPlan {
    static final long OVERLAP_MIN_BYTES = 256 * 1024;
    static final long PIECE_MIN_BYTES = 256 * 1024;
    static final int MAX_PIECES = 8;
    /** Chunk (and slot) size when the result does not fit the node buffer. */
    static final long CHUNK_BYTES = 256 * 1024;

    /** A range of RECV that travels as one message: {@code tag} on the wire, {@code step} the master's step. */
    record Piece(int fromMaster, int tag, long offset, long length, int step) {
    }

    final Placement placement;
    final int node;
    final int master;
    final int ranks;
    final long blockBytes;
    final boolean overlapped;
    final boolean whole;
    /** Slots of the node buffer the items go round; {@link Integer#MAX_VALUE} where nothing is reused. */
    final int slots;
    /** The master's own pieces (tag = index); each ends on a block boundary. */
    final List<Piece> own = new ArrayList<>();
    /** The pieces the master receives, in the order it receives them. */
    final List<Piece> received = new ArrayList<>();
    /** Per item: its writer (a rank), range of RECV, place in the node buffer, and the writer's raise count. */
    final List<Item> items = new ArrayList<>();
    /** Per received piece, its first item (and one past the last at the end); empty when the node has one rank. */
    final int[] firstItemOf;
    /** Per own piece, the index of its last item, or -1 when the node has one rank. */
    final int[] lastItemOf;

    record Item(int writer, long offset, long length, long nodeOffset, int raise) {
    }

    SmpDirectPlan(Shape shape, int node) {
        this.placement = shape.placement();
        this.node = node;
        this.master = placement.masterOf(node);
        this.ranks = placement.ranksOnNode(node);
        this.blockBytes = shape.blockBytes();
        this.overlapped = overlaps(shape);
        this.whole = (long) shape.size() * blockBytes <= NodeBuffer.BYTES;
        this.slots = whole ? Integer.MAX_VALUE : (int) (NodeBuffer.BYTES / CHUNK_BYTES);
        int m = placement.nodeCount();
        int k = shape.ports();
        long b = blockBytes;
        int per = blocksPerPiece(node);
        for (int t = 0; t * per < ranks; t++) {
            long length = Math.min(per, ranks - (long) t * per) * b;
            own.add(new Piece(master, t, (master + (long) t * per) * b, length, 0));
        }
        long rounds = Radix.ceilDiv(m - 1, k);
        for (int s = 0; s < rounds; s++) {
            int first = s * k + 1;
            int last = (int) Math.min((long) (s + 1) * k, m - 1);
            int most = 0;
            for (int d = first; d <= last; d++) {
                int source = Math.floorMod(node - d, m);
                most = Math.max(most, (int) Radix.ceilDiv(placement.ranksOnNode(source), blocksPerPiece(source)));
            }
            for (int t = 0; t < most; t++) {
                for (int d = first; d <= last; d++) {
                    int source = Math.floorMod(node - d, m);
                    int sourceRanks = placement.ranksOnNode(source);
                    int sourcePer = blocksPerPiece(source);
                    if ((long) t * sourcePer >= sourceRanks) {
                        continue;
                    }
                    int from = placement.masterOf(source);
                    long offset = (from + (long) t * sourcePer) * b;
                    long length = Math.min(sourcePer, sourceRanks - (long) t * sourcePer) * b;
                    received.add(new Piece(from, t, offset, length, s));
                }
            }
        }
        lastItemOf = new int[own.size()];
        firstItemOf = new int[received.size() + 1];
        if (ranks == 1) {
            java.util.Arrays.fill(lastItemOf, -1);
            return; // nobody to hand anything to
        }
        int[] raises = new int[ranks];
        for (int l = 0; l < ranks; l++) {
            add(master + l, (master + (long) l) * b, b, raises);
            lastItemOf[l / per] = items.size() - 1;
        }
        for (int r = 0; r < received.size(); r++) {
            firstItemOf[r] = items.size();
            add(master, received.get(r).offset(), received.get(r).length(), raises);
        }
        firstItemOf[received.size()] = items.size();
    }

    /** Adds the items of {@code [offset, offset + length)} of RECV written by {@code writer}. */
    private void add(int writer, long offset, long length, int[] raises) {
        long chunk = whole ? Math.max(length, 1) : CHUNK_BYTES;
        long done = 0;
        do {
            long part = Math.min(chunk, length - done);
            int j = items.size();
            long nodeOffset = whole ? offset + done : (j % slots) * CHUNK_BYTES;
            items.add(new Item(writer, offset + done, part, nodeOffset, ++raises[writer - master]));
            done += part;
        } while (done < length);
    }

    /** Whether the masters overlap the node's hand-offs with their exchange for {@code shape}. */
    static boolean overlaps(Shape shape) {
        Placement p = shape.placement();
        return p.nodeCount() >= 2 && p.maxRanksPerNode() * shape.blockBytes() >= OVERLAP_MIN_BYTES;
    }

    /** Blocks per piece of node {@code source}'s blocks: all of them (one message per node) without overlap. */
    private int blocksPerPiece(int source) {
        int sourceRanks = placement.ranksOnNode(source);
        if (!overlapped) {
            return sourceRanks;
        }
        long byBytes = blockBytes >= PIECE_MIN_BYTES ? 1 : Radix.ceilDiv(PIECE_MIN_BYTES, blockBytes);
        return (int) Math.min(sourceRanks, Math.max(byBytes, Radix.ceilDiv(sourceRanks, MAX_PIECES)));
    }

    /** Blocks per own piece. */
    int ownBlocksPerPiece() {
        return blocksPerPiece(node);
    }

    /** The masters master n puts to in step {@code s}. */
    int[] destinations(int s, int ports) {
        int m = placement.nodeCount();
        int first = s * ports + 1;
        int last = Math.min((s + 1) * ports, m - 1);
        int[] to = new int[Math.max(0, last - first + 1)];
        for (int d = first; d <= last; d++) {
            to[d - first] = placement.masterOf((node + d) % m);
        }
        return to;
    }

    int rounds(int ports) {
        return (int) Radix.ceilDiv(placement.nodeCount() - 1, ports);
    }

    /** Whether item {@code j}'s slot is reused by a later item: its readers then say when they drained it. */
    boolean reused(int j) {
        return slots != Integer.MAX_VALUE && j + slots < items.size();
    }

    /**
     * How many items up to {@code i} (inclusive) rank {@code q} of the node read: the count its drain flag reaches
     * once it drained item i (every item below the last {@link #slots} is drained).
     */
    int drainedBy(int q, int i) {
        int read = 0;
        for (int j = 0; j <= i; j++) {
            if (items.get(j).writer() != q) {
                read++;
            }
        }
        return read;
    }
}
