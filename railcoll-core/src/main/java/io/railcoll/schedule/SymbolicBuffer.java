package io.railcoll.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One rank's buffer as the checker sees it: byte ranges mapped to what their bytes hold. Plain data is one
 * {@link Origin}: the origin rank, buffer and offset its bytes were copied from. A byte range that a
 * {@link Op.Reduce} wrote holds an ordered combination of origins, {@code t0 op t1 op ... op tk} (the left operand
 * first), each term a run of consecutive origin bytes. A range holds a run, so the cost of a copy, put or reduce is
 * the number of runs it touches, independent of the byte count. Unwritten bytes hold nothing.
 */
final class SymbolicBuffer {

    /** {@code rank}'s {@code buffer}, starting at byte {@code offset} (the term's first byte). */
    record Origin(int rank, Buffer buffer, long offset) {
        Origin shifted(long skip) {
            return skip == 0 ? this : new Origin(rank, buffer, offset + skip);
        }

        String describe(long length) {
            return "rank " + rank + " " + buffer + "[" + offset + "," + (offset + length) + ")";
        }
    }

    private static final Origin[] NOTHING = new Origin[0];

    /** {@code length} bytes holding the combination of {@code terms} in order; no terms: no data. */
    record Piece(long length, Origin[] terms) {
        static Piece undefined(long length) {
            return new Piece(length, NOTHING);
        }

        static Piece of(long length, int rank, Buffer buffer, long offset) {
            return new Piece(length, new Origin[] {new Origin(rank, buffer, offset)});
        }

        boolean defined() {
            return terms.length > 0;
        }

        /** True when the bytes are one origin's, copied and not combined. */
        boolean plain() {
            return terms.length == 1;
        }

        /** The single origin of plain data; undefined for a combination. */
        int originRank() {
            return terms.length == 0 ? -1 : terms[0].rank();
        }

        Buffer originBuffer() {
            return terms.length == 0 ? null : terms[0].buffer();
        }

        long originOffset() {
            return terms.length == 0 ? 0 : terms[0].offset();
        }

        Piece prefix(long n) {
            return new Piece(n, terms);
        }

        Piece suffix(long skip) {
            if (skip == 0) {
                return this;
            }
            Origin[] shifted = new Origin[terms.length];
            for (int i = 0; i < terms.length; i++) {
                shifted[i] = terms[i].shifted(skip);
            }
            return new Piece(length - skip, shifted);
        }

        /** The bytes of {@code left op this}, element by element. */
        Piece combinedAfter(Piece left) {
            if (!defined() || !left.defined()) {
                return undefined(length);
            }
            Origin[] all = Arrays.copyOf(left.terms, left.terms.length + terms.length);
            System.arraycopy(terms, 0, all, left.terms.length, terms.length);
            return new Piece(length, all);
        }

        String describe() {
            if (!defined()) {
                return "nothing";
            }
            StringBuilder sb = new StringBuilder();
            for (Origin o : terms) {
                sb.append(sb.isEmpty() ? "" : " op ").append(o.describe(length));
            }
            return sb.toString();
        }
    }

    private record Run(long end, Origin[] terms) {
    }

    private final TreeMap<Long, Run> runs = new TreeMap<>();

    /** Marks {@code [0, length)} as holding the caller's own data ({@code rank}'s {@code buffer}). */
    void fillWithOrigin(long length, int rank, Buffer buffer) {
        if (length > 0) {
            runs.put(0L, new Run(length, new Origin[] {new Origin(rank, buffer, 0)}));
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
                out.add(Piece.undefined(end - pos));
                break;
            }
            Run run = runs.get(key);
            if (key > pos) {
                out.add(Piece.undefined(key - pos));
                pos = key;
            }
            long pieceEnd = Math.min(run.end(), end);
            out.add(new Piece(run.end() - key, run.terms()).suffix(pos - key).prefix(pieceEnd - pos));
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
                runs.put(pos, new Run(pos + p.length(), p.terms()));
            }
            pos += p.length();
        }
    }

    /**
     * {@code left op right}, piece by piece: both lists cover the same number of bytes; the result is cut wherever
     * either list changes piece.
     */
    static List<Piece> combine(List<Piece> left, List<Piece> right) {
        List<Piece> out = new ArrayList<>();
        int li = 0;
        int ri = 0;
        long lUsed = 0;
        long rUsed = 0;
        while (li < left.size() && ri < right.size()) {
            Piece l = left.get(li);
            Piece r = right.get(ri);
            long n = Math.min(l.length() - lUsed, r.length() - rUsed);
            if (n > 0) {
                out.add(r.suffix(rUsed).prefix(n).combinedAfter(l.suffix(lUsed).prefix(n)));
            }
            lUsed += n;
            rUsed += n;
            if (lUsed == l.length()) {
                li++;
                lUsed = 0;
            }
            if (rUsed == r.length()) {
                ri++;
                rUsed = 0;
            }
        }
        return out;
    }

    private void clear(long start, long end) {
        Map.Entry<Long, Run> floor = runs.lowerEntry(start);
        if (floor != null && floor.getValue().end() > start) {
            Run run = floor.getValue();
            runs.put(floor.getKey(), new Run(start, run.terms()));
            if (run.end() > end) {
                runs.put(end, new Run(run.end(), shift(run.terms(), end - floor.getKey())));
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
                runs.put(end, new Run(run.end(), shift(run.terms(), end - e.getKey())));
            }
        }
    }

    private static Origin[] shift(Origin[] terms, long skip) {
        Origin[] shifted = new Origin[terms.length];
        for (int i = 0; i < terms.length; i++) {
            shifted[i] = terms[i].shifted(skip);
        }
        return shifted;
    }
}
