package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One rank's buffer as the checker sees it: byte ranges mapped to where their bytes came from (origin rank,
 * origin buffer, origin offset). A range holds a run of consecutive origin bytes, so the cost of a copy or put is
 * the number of runs it touches, independent of the byte count. Unwritten bytes have no origin.
 */
final class SymbolicBuffer {

    /** {@code length} bytes from {@code originRank}'s {@code originBuffer} at {@code originOffset}; rank -1: no data. */
    record Piece(long length, int originRank, Buffer originBuffer, long originOffset) {
        boolean defined() {
            return originRank >= 0;
        }

        Piece prefix(long n) {
            return new Piece(n, originRank, originBuffer, originOffset);
        }

        Piece suffix(long skip) {
            return new Piece(length - skip, originRank, originBuffer, defined() ? originOffset + skip : 0);
        }

        String describe() {
            return defined() ? "rank " + originRank + " " + originBuffer + "[" + originOffset + "," + (originOffset + length) + ")"
                    : "nothing";
        }
    }

    private record Run(long end, int originRank, Buffer originBuffer, long originOffset) {
    }

    private final TreeMap<Long, Run> runs = new TreeMap<>();

    /** Marks {@code [0, length)} as holding the caller's own data ({@code rank}'s {@code buffer}). */
    void fillWithOrigin(long length, int rank, Buffer buffer) {
        if (length > 0) {
            runs.put(0L, new Run(length, rank, buffer, 0));
        }
    }

    /** The pieces covering {@code [offset, offset+length)}, in order, undefined gaps included. */
    List<Piece> read(long offset, long length) {
        List<Piece> out = new ArrayList<>();
        long pos = offset;
        long end = offset + length;
        Map.Entry<Long, Run> floor = runs.floorEntry(pos);
        Long key = floor != null && floor.getValue().end() > pos ? floor.getKey() : runs.ceilingKey(pos);
        while (pos < end) {
            if (key == null || key >= end) {
                out.add(new Piece(end - pos, -1, null, 0));
                break;
            }
            Run run = runs.get(key);
            if (key > pos) {
                out.add(new Piece(key - pos, -1, null, 0));
                pos = key;
            }
            long pieceEnd = Math.min(run.end(), end);
            out.add(new Piece(pieceEnd - pos, run.originRank(), run.originBuffer(), run.originOffset() + (pos - key)));
            pos = pieceEnd;
            key = runs.higherKey(key);
        }
        return out;
    }

    /** Replaces {@code [offset, offset + total length of pieces)} with {@code pieces}. */
    void write(long offset, List<Piece> pieces) {
        long length = 0;
        for (Piece p : pieces) {
            length += p.length();
        }
        if (length == 0) {
            return;
        }
        clear(offset, offset + length);
        long pos = offset;
        for (Piece p : pieces) {
            if (p.defined() && p.length() > 0) {
                runs.put(pos, new Run(pos + p.length(), p.originRank(), p.originBuffer(), p.originOffset()));
            }
            pos += p.length();
        }
    }

    private void clear(long start, long end) {
        Map.Entry<Long, Run> floor = runs.lowerEntry(start);
        if (floor != null && floor.getValue().end() > start) {
            Run run = floor.getValue();
            runs.put(floor.getKey(), new Run(start, run.originRank(), run.originBuffer(), run.originOffset()));
            if (run.end() > end) {
                runs.put(end, new Run(run.end(), run.originRank(), run.originBuffer(),
                        run.originOffset() + (end - floor.getKey())));
            }
        }
        while (true) {
            Map.Entry<Long, Run> e = runs.ceilingEntry(start);
            if (e == null || e.getKey() >= end) {
                break;
            }
            runs.remove(e.getKey());
            Run run = e.getValue();
            if (run.end() > end) {
                runs.put(end, new Run(run.end(), run.originRank(), run.originBuffer(),
                        run.originOffset() + (end - e.getKey())));
            }
        }
    }
}
