package io.railcoll.algorithm.node;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Traffic;

/**
 * The node gather, phase 1 of the SMP-aware all-gathers (paper 000 section 5.2, paper 001 section 6.2) and of the
 * multi-connection aware ones (paper 002 sections 5.1 and 5.3, where a node's share goes to the share's master):
 * over shared memory, every rank of a set of {@link PackedBlocks} puts its SEND block to the set's master, which
 * copies its own block from SEND and receives every other one in packed order, the order the members' puts take
 * its receive ports, into the {@link Region} where it keeps the set (their final RECV places when they are one
 * RECV range). A member sends b; the master receives {@code (L-1) b} for a set of L blocks, in
 * {@code ceil((L-1)/k)} steps. The program side writes ops into a {@link PhasedProgramBuilder}; the design side
 * states the same messages into a {@link Traffic} for a cost stated from the design. Stateless.
 */
public final class NodeGather {
    private NodeGather() {
    }

    /** A member's part: its SEND block to {@code master}. */
    public static PhasedProgramBuilder member(PhasedProgramBuilder p, int master, long blockBytes, int tag) {
        return p.put(master, Buffer.SEND, 0, blockBytes, tag);
    }

    /** The master's part: {@code blocks}, its own included, into {@code region} in packed order. */
    public static PhasedProgramBuilder master(PhasedProgramBuilder p, PackedBlocks blocks, Region region,
                                              long blockBytes, int tag) {
        for (int i = 0; i < blocks.count(); i++) {
            long at = region.offset() + i * blockBytes;
            if (blocks.rank(i) == p.rank()) {
                p.copy(Buffer.SEND, 0, region.buffer(), at, blockBytes);
            } else {
                p.recv(blocks.rank(i), tag, region.buffer(), at, blockBytes);
            }
        }
        return p;
    }

    /** The design's messages of {@code rank}'s part, a member's or, when it is {@code master}, the master's. */
    public static void traffic(Traffic traffic, int rank, int master, PackedBlocks blocks, long blockBytes, int tag) {
        if (rank != master) {
            traffic.send(rank, master, tag, blockBytes);
            return;
        }
        for (int i = 0; i < blocks.count(); i++) {
            if (blocks.rank(i) != rank) {
                traffic.receive(rank, blocks.rank(i), tag);
            }
        }
    }
}
