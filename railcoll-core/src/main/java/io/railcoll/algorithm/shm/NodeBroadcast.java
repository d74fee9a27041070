package io.railcoll.algorithm.shm;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.schedule.LinkTally;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.NodeBuffer;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.Optional;

/**
 * {@code broadcast.shm}: a one-node broadcast through the node buffer in node steps (paper 000 sec. 4.2; decisions
 * 0101, 0186), a schedule the engine runs like any other. The root copies the message into the node buffer chunk by chunk,
 * raising its flag 0 after each; every other rank waits for each raise and copies that chunk out, so readers copy
 * chunk j while the root writes chunk j+1 (a pipeline: about one write of the message plus one chunk's read, instead
 * of a write plus a read). Chunks go round {@link NodeBuffer#BYTES} / chunk slots; before the root overwrites a slot
 * it waits for every reader's flag 1, raised after each chunk a later one will overwrite, so a message larger than
 * the buffer streams through it. The engine gives consecutive calls the node buffer's two halves in turn, so a
 * root's next broadcast waits only for the readers of the one before the previous (decision 0186). Any root;
 * nodes = 1; only where the node region is enabled. Where single copy is agreed, selection sends 64 KiB and up on
 * nodes of 2-3 ranks to {@code broadcast.shm-single-copy} (decision 0182). A message of at most
 * {@link NodeBuffer#PAYLOAD_BYTES} rides in the root's raise itself, in the flag's cache line (decision 0202).
 * Stateless.
 */
public final class NodeBroadcast extends AlgorithmBase implements NodeRegionUser {
    public static final String ID = "broadcast.shm";
    /** Raised by the root after each chunk it wrote. */
    static final int WRITTEN = 0;
    /** Raised by a reader after each chunk it copied out whose slot a later chunk reuses. */
    static final int DRAINED = 1;
    /**
     * Messages up to this size go in one chunk, and no chunk is smaller: where ranks outnumber processors every chunk
     * can cost a reader a wake-up (1x16 on 2 processors: four 16 KiB chunks took 37-45 us at 64 KiB, one node-buffer
     * step 4.4 us), and where every rank has a processor 64 KiB is about 6 us of copying, so little overlap is lost
     * (decision 0181).
     */
    static final long SINGLE_CHUNK_BYTES = 64 * 1024;
    /** Chunks per message above that, so readers start after an eighth of the message. */
    static final int CHUNKS = 8;
    static final long MIN_CHUNK_BYTES = SINGLE_CHUNK_BYTES;
    static final long MAX_CHUNK_BYTES = 256 * 1024;

    public NodeBroadcast() {
        super(ID, Collective.BROADCAST);
    }

    /** Bytes per chunk for a message of {@code bytes}: a 64-byte multiple, at most the node buffer. */
    static long chunkBytes(long bytes) {
        if (bytes <= SINGLE_CHUNK_BYTES) {
            return Math.max(bytes, 1);
        }
        long chunk = (bytes + CHUNKS - 1) / CHUNKS;
        chunk = (chunk + 63) & ~63L;
        return Math.clamp(chunk, MIN_CHUNK_BYTES, MAX_CHUNK_BYTES);
    }

    @Override
    protected Optional<String> restriction(Shape shape) {
        return OneNode.ofSeveralRanks(shape);
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        long bytes = shape.blockBytes();
        long chunk = chunkBytes(bytes);
        int chunks = (int) ((bytes + chunk - 1) / chunk);
        int slots = (int) (NodeBuffer.BYTES / chunk);
        int root = shape.root();
        ProgramBuilder p = new ProgramBuilder(rank);
        if (bytes > 0 && bytes <= NodeBuffer.PAYLOAD_BYTES) {
            // The message rides in the root's raise, in the flag's own line: one cache miss per reader (decision 0202).
            if (rank == root) {
                p.publish(WRITTEN, Buffer.RECV, 0, bytes);
            } else {
                p.awaitFlag(root, WRITTEN, 1, Buffer.RECV, 0, bytes);
            }
            return p.build();
        }
        for (int j = 0; j < chunks; j++) {
            long offset = j * chunk;
            long length = Math.min(chunk, bytes - offset);
            long slot = (long) (j % slots) * chunk;
            if (rank == root) {
                if (j >= slots) {
                    for (int q = 0; q < shape.size(); q++) {
                        if (q != root) {
                            p.awaitFlag(q, DRAINED, j - slots + 1);
                        }
                    }
                }
                p.nodeWrite(Buffer.RECV, offset, slot, length).publish(WRITTEN);
            } else {
                p.awaitFlag(root, WRITTEN, j + 1).nodeRead(slot, Buffer.RECV, offset, length);
                if (j + slots < chunks) {
                    p.publish(DRAINED);
                }
            }
        }
        return p.build();
    }

    /** No message: the bytes move in node steps, which the simulator prices (copies and flag crossings). */
    @Override
    public CostTerms cost(Shape shape) {
        return new LinkTally(shape.placement()).toCost(0, 0, "node steps: b written + b read per rank, pipelined");
    }

    @Override
    public String summary() {
        return "shared-memory broadcast on one node in node steps: the root copies the message into the node buffer"
                + " in chunks, raising a flag after each, every other rank copies each chunk out as it is raised"
                + " (pipelined; streams through the buffer's slots when larger); any root; nodes = 1; paper 000"
                + " sec. 4.2, decision 0101";
    }
}
