package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each block a rank holds currently sits, for algorithms whose blocks move between buffers (the all-to-all
 * exchanges): block ids are the caller's. Sending a list of blocks as one message puts them straight from where
 * they are when they already sit back to back in order, and otherwise packs them into a fresh TEMP region first;
 * receiving records their new places. Regions are never reused (see {@link ProgramBuilder}). Not thread-safe;
 * one instance per program being built.
 */
public final class BlockLocations {

    /** A block's place: {@code blockBytes} bytes of {@code buffer} from {@code offset}. */
    public record Location(Buffer buffer, long offset) {
    }

    private final long blockBytes;
    private final Map<Long, Location> where = new HashMap<>();

    public BlockLocations(long blockBytes) {
        this.blockBytes = blockBytes;
    }

    public void place(long block, Buffer buffer, long offset) {
        where.put(block, new Location(buffer, offset));
    }

    public Location locate(long block) {
        Location location = where.get(block);
        if (location == null) {
            throw new IllegalStateException("block " + block + " is not held here");
        }
        return location;
    }

    /** Puts {@code blocks}, in order, to {@code peer} as one message, and forgets them. */
    public void put(ProgramBuilder p, int peer, List<Long> blocks, int tag) {
        long length = blocks.size() * blockBytes;
        Location first = blocks.isEmpty() ? new Location(Buffer.SEND, 0) : locate(blocks.getFirst());
        boolean contiguous = true;
        for (int i = 1; i < blocks.size() && contiguous; i++) {
            Location l = locate(blocks.get(i));
            contiguous = l.buffer() == first.buffer() && l.offset() == first.offset() + i * blockBytes;
        }
        if (contiguous) {
            p.put(peer, first.buffer(), first.offset(), length, tag);
        } else {
            long pack = p.allocateTemp(length);
            for (int i = 0; i < blocks.size(); i++) {
                Location l = locate(blocks.get(i));
                p.copy(l.buffer(), l.offset(), Buffer.TEMP, pack + i * blockBytes, blockBytes);
            }
            p.put(peer, Buffer.TEMP, pack, length, tag);
        }
        for (long block : blocks) {
            where.remove(block);
        }
    }

    /** Receives {@code blocks}, in order, from {@code peer} into {@code dst} at {@code offset}, and records them. */
    public void receive(ProgramBuilder p, int peer, int tag, List<Long> blocks, Buffer dst, long offset) {
        p.recv(peer, tag, dst, offset, blocks.size() * blockBytes);
        for (int i = 0; i < blocks.size(); i++) {
            place(blocks.get(i), dst, offset + i * blockBytes);
        }
    }

    /** Receives {@code blocks} from {@code peer} into a fresh TEMP region, and records them. */
    public void receiveIntoTemp(ProgramBuilder p, int peer, int tag, List<Long> blocks) {
        receive(p, peer, tag, blocks, Buffer.TEMP, p.allocateTemp(blocks.size() * blockBytes));
    }

    /** Copies {@code block} to {@code dst} at {@code offset} unless it already sits there. */
    public void copyTo(ProgramBuilder p, long block, Buffer dst, long offset) {
        Location l = locate(block);
        if (l.buffer() != dst || l.offset() != offset) {
            p.copy(l.buffer(), l.offset(), dst, offset, blockBytes);
        }
    }
}
