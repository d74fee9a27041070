package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code allreduce.shm-doubling}: recursive doubling in node steps, one node, for small vectors (decision 0201).
 * {@code allreduce.shm}'s small form has every rank await, read and combine all L - 1 node-mates' vectors, L - 1 flag
 * lines and L - 1 slots in a row on every rank; here each rank reads {@code log2 P} of them (P the largest power of two
 * at most L), one per round: in round s it writes its partial result into its slot of that round, raises its flag and
 * combines the slot of virtual partner {@code v xor 2^s}.
 *
 * <p>L not a power of two: the first {@code 2(L - P)} ranks pair up first (even rank r writes its vector, odd rank r + 1
 * combines it and stands for both), and get the result back from their odd partner at the end.
 *
 * <p>Rank order: every partial result is the combination of a run of consecutive ranks, and two runs are always
 * combined lower run on the left, so a non-commutative operator is served; the two ranks of a pair combine the same
 * operands in the same order, so every rank gets the same bits. The bracketing is a balanced tree, not
 * {@code allreduce.shm}'s fold from the right, so the two may differ in the last bits of a floating-point sum (neither is
 * the deterministic option's order). Slots: one per rank and round, {@code b} rounded up to whole 128-byte lines
 * apart, so a vector must fit {@code (log2 P + 2) L} slots in the node buffer. Vectors of 1..24 bytes on up to 16
 * ranks skip the slots: each round's partial result rides in the raise of a flag of its own, in the flag's cache line,
 * one line per round instead of two (decision 0202). Nodes = 1, at least two ranks. Stateless.
 */
public final class NodeDoublingAllreduce extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "allreduce.shm-doubling";
    /** Raised by a rank after it wrote its slot of a round. */
    static final int WRITTEN = 0;

    public NodeDoublingAllreduce() {
        super(ID, Collective.ALLREDUCE);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        Optional<String> oneNode = OneNode.ofSeveralRanks(shape);
        if (oneNode.isPresent()) {
            return oneNode;
        }
        long need = slotBytes(shape) * (rounds(shape.size()) + 2) * shape.size();
        if (need > NodeBuffer.BYTES) {
            return Optional.of("its slots (" + need + " bytes: one per rank and round) exceed the node buffer's "
                    + NodeBuffer.BYTES + "; allreduce.shm takes vectors of any size");
        }
        return Optional.empty();
    }

    private static long slotBytes(Shape shape) {
        return (shape.blockBytes() + NodeAllreduce.LINE - 1) / NodeAllreduce.LINE * NodeAllreduce.LINE;
    }

    /** log2 of the largest power of two at most {@code l}. */
    private static int rounds(int l) {
        return 31 - Integer.numberOfLeadingZeros(l);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int l = shape.size();
        int rounds = rounds(l);
        int extra = l - (1 << rounds);
        long bytes = shape.blockBytes();
        Exchange exchange = inFlagLines(shape) ? new InFlagLines(bytes) : new InSlots(new Slots(slotBytes(shape), l),
                rank, bytes);
        ProgramBuilder p = new ProgramBuilder(rank);
        int handBack = rounds + 1;
        if (rank < 2 * extra && rank % 2 == 0) {
            // Folded into rank + 1, which stands for both and hands the result back at the end.
            exchange.give(p, 0, new Partial(Buffer.SEND, 0));
            exchange.take(p, handBack, rank + 1, new Partial(Buffer.RECV, 0));
            return p.build();
        }
        long temp = p.allocateTemp(bytes);
        Partial acc = new Partial(Buffer.RECV, 0);
        p.copy(Buffer.SEND, 0, Buffer.RECV, 0, bytes);
        if (rank < 2 * extra) {
            exchange.take(p, 0, rank - 1, new Partial(Buffer.TEMP, temp));
            p.reduce(Buffer.TEMP, temp, Buffer.RECV, 0, bytes);
        }
        int v = rank < 2 * extra ? rank / 2 : rank - extra;
        for (int s = 0; s < rounds; s++) {
            int partner = real(v ^ 1 << s, extra);
            Partial other = acc.buffer == Buffer.RECV ? new Partial(Buffer.TEMP, temp) : new Partial(Buffer.RECV, 0);
            exchange.give(p, s + 1, acc);
            exchange.take(p, s + 1, partner, other);
            if (partner < rank) {
                p.reduce(other.buffer, other.offset, acc.buffer, acc.offset, bytes);
            } else {
                p.reduce(acc.buffer, acc.offset, other.buffer, other.offset, bytes);
                acc = other;
            }
        }
        if (acc.buffer != Buffer.RECV) {
            p.copy(acc.buffer, acc.offset, Buffer.RECV, 0, bytes);
        }
        if (rank < 2 * extra) {
            exchange.give(p, handBack, new Partial(Buffer.RECV, 0));
        }
        return p.build();
    }

    /**
     * Whether every partial result rides in a raise (decision 0202): a vector of 1..{@link NodeBuffer#PAYLOAD_BYTES}
     * bytes, and a flag for each raise a rank makes (one payload per flag per call): log2 P rounds, plus the hand-back
     * where L is not a power of two, at most {@link NodeBuffer#FLAGS} (L up to 16).
     */
    private static boolean inFlagLines(Shape shape) {
        int l = shape.size();
        int raises = rounds(l) + (l == Integer.highestOneBit(l) ? 0 : 1);
        return shape.blockBytes() > 0 && shape.blockBytes() <= NodeBuffer.PAYLOAD_BYTES && raises <= NodeBuffer.FLAGS;
    }

    /**
     * How a rank hands a vector to a node-mate at a stage (0: the pairs' fold, s + 1: round s, log2 P + 1: the
     * hand-back) and takes one: the only difference between the two forms.
     */
    private interface Exchange {
        void give(ProgramBuilder p, int stage, Partial from);

        void take(ProgramBuilder p, int stage, int from, Partial into);
    }

    /**
     * Through the node buffer: a slot per rank and stage, one flag (WRITTEN) raised once per stage, so stage k's
     * raise is the raiser's k-th (the fold's the first).
     */
    private record InSlots(Slots slots, int rank, long bytes) implements Exchange {
        @Override
        public void give(ProgramBuilder p, int stage, Partial from) {
            write(p, from.buffer, from.offset, slots.at(stage, rank), bytes).publish(WRITTEN);
        }

        @Override
        public void take(ProgramBuilder p, int stage, int from, Partial into) {
            p.awaitFlag(from, WRITTEN, Math.max(stage, 1));
            read(p, slots.at(stage, from), into.buffer, into.offset, bytes);
        }
    }

    /**
     * In the flags' lines (decision 0202): a flag of its own for each raise a rank makes, carrying the vector, and its
     * await reads it; no slot, one line per stage. The fold raises flag 0, round s flag s, the hand-back flag log2 P
     * (the fold's raiser is an even folded rank, round 0's the others, so no rank raises a flag twice).
     */
    private record InFlagLines(long bytes) implements Exchange {
        @Override
        public void give(ProgramBuilder p, int stage, Partial from) {
            p.publish(flagOf(stage), from.buffer, from.offset, bytes);
        }

        @Override
        public void take(ProgramBuilder p, int stage, int from, Partial into) {
            p.awaitFlag(from, flagOf(stage), 1, into.buffer, into.offset, bytes);
        }

        private static int flagOf(int stage) {
            return Math.max(stage - 1, 0);
        }
    }

    /** The rank that virtual rank {@code v} is: the odd rank of a folded pair, or a rank past the pairs. */
    private static int real(int v, int extra) {
        return v < extra ? 2 * v + 1 : v + extra;
    }

    /** A vector in a buffer: where a rank's partial result lies now. */
    private record Partial(Buffer buffer, long offset) {
    }

    /** Slot of {@code rank} in stage {@code stage} (0: the pairs' fold, last: the hand-back). */
    private record Slots(long stride, int l) {
        long at(int stage, int rank) {
            return (stage * (long) l + rank) * stride;
        }
    }

    private static ProgramBuilder write(ProgramBuilder p, Buffer src, long offset, long nodeOffset, long bytes) {
        return bytes == 0 ? p : p.nodeWrite(src, offset, nodeOffset, bytes);
    }

    private static void read(ProgramBuilder p, long nodeOffset, Buffer dst, long offset, long bytes) {
        if (bytes > 0) {
            p.nodeRead(nodeOffset, dst, offset, bytes);
        }
    }

    /** No message: log2 P + 2 flag crossings at most, b written and read per round. */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: log2 P rounds (+2 where L is not a power of"
                + " two), each b written, b read and combined per rank");
    }

    @Override
    public String summary() {
        return "recursive doubling in node steps on one node: log2 P rounds of one slot and one flag per rank (pairs"
                + " folded first where L is not a power of two); rank order, so any operator; small vectors; nodes ="
                + " 1; decision 0201";
    }
}
