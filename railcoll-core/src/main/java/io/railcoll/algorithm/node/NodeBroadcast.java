package io.railcoll.algorithm.node;

import io.railcoll.schedule.Traffic;

/**
 * The node broadcast, the last phase of the node-aware all-gathers (paper 000 section 5.2, paper 001 section 6.2,
 * paper 002 section 5): over shared memory, a rank that holds some {@link PackedBlocks} (a master, after the
 * inter-node phase or a step of it) puts them, as one message each, to the other ranks of its node, which receive
 * them into their final RECV places. The senders list their peers with {@link NodeOrder#peersAfter}, so that
 * several senders of one node never reach the same peer at the same position of their sequences. One message of
 * {@code B} bytes to each of the L-1 peers takes {@code ceil((L-1)/k)} steps. The program side writes ops into a
 * {@link PhasedProgramBuilder}; the design side states the same messages into a {@link Traffic} for a cost stated
 * from the design. Stateless.
 */
public final class NodeBroadcast {
    private NodeBroadcast() {
    }

    /** The sender's part: {@code blocks}, kept in {@code region}, to each of {@code peers} in order. */
    public static PhasedProgramBuilder send(PhasedProgramBuilder p, int[] peers, Region region, PackedBlocks blocks,
                                            long blockBytes, int tag) {
        for (int peer : peers) {
            p.putBlocks(peer, region, blocks, blockBytes, tag);
        }
        return p;
    }

    /** A receiver's part: {@code blocks} from {@code sender} into their final RECV places (through TEMP if need be). */
    public static PhasedProgramBuilder receive(PhasedProgramBuilder p, int sender, int tag, PackedBlocks blocks,
                                               long blockBytes) {
        return p.recvInPlace(sender, tag, blocks, blockBytes);
    }

    /** The design's messages of a sender: {@code bytes} from {@code sender} to each of {@code peers} in order. */
    public static void traffic(Traffic traffic, int sender, int[] peers, int tag, long bytes) {
        for (int peer : peers) {
            traffic.send(sender, peer, tag, bytes);
        }
    }
}
