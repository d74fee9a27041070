package io.railcoll.algorithm.allgather;

import io.railcoll.algorithm.AlgorithmBase;
import io.railcoll.algorithm.ProgramBuilder;
import io.railcoll.algorithm.Radix;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.CostTerms;
import io.railcoll.schedule.LinkTally;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.List;

/**
 * k-port Bruck all-gather (paper 000 section 5.1.2, paper 001 section 6.1.3), any N.
 *
 * <p>Rank p works on a rotated view: position i holds block {@code (p+i) mod N}, position 0 its own. With
 * {@code c_s = (k+1)^s} and {@code L = floor(log_{k+1} N)}:
 * <ul>
 *   <li>step s < L: p puts positions {@code [0, c_s)} to ranks {@code p - j c_s} and receives positions
 *       {@code [j c_s, (j+1) c_s)} from ranks {@code p + j c_s}, for j = 1..k; after it p holds {@code c_(s+1)};</li>
 *   <li>extra step, when {@code r = N - c_L > 0}: the r missing positions are split into {@code q = ceil(r/k)}-block
 *       pieces; piece j (from position {@code o_j = c_L + (j-1) q}) comes from rank {@code p + o_j}, which sends its
 *       first blocks. The paper has each rank send "the first r blocks"; splitting them over the k ports is what
 *       keeps its claim that the cost is (1) for any N;</li>
 *   <li>final shift: position i goes to RECV block {@code (p+i) mod N}.</li>
 * </ul>
 * Following the paper's SMP-Bruck refinement, a received range that no later step forwards and that does not wrap
 * past block N-1 lands straight in its final place in RECV; only forwarded (or wrapping) positions live in TEMP,
 * and the final shift copies just those, in at most two pieces per contiguous run.
 *
 * <pre>
 *   N = 5, k = 2, rank p: positions after each step (block numbers relative to p)
 *   start      [p]
 *   step 0     [p, p+1, p+2]          from p+1, p+2
 *   extra      [p, .., p+3, p+4]      r = 2, q = 1: p+3 from p+3, p+4 from p+4
 * </pre>
 *
 * <p>Steps {@code ceil(log_{k+1} N)}; beta bytes {@code ((c_L - 1)/k + ceil(r/k)) b = ceil((N-1)/k) b}, equation
 * (1) for any N. Each rank sends and receives {@code (N-1) b}. TEMP at most {@code N b}.
 */
public final class BruckAllgather extends AlgorithmBase {
    public static final String ID = "allgather.bruck";

    public BruckAllgather() {
        super(ID, Collective.ALLGATHER);
    }

    /** One message of one step, in rotated positions: from {@code p + offset} into positions [offset, +length). */
    private record Piece(int step, int offset, int length) {
    }

    /** Every step's pieces, in step order then port order. */
    private static List<Piece> pieces(int n, int ports) {
        int radix = ports + 1;
        int depth = Radix.floorLog(n, radix);
        List<Piece> pieces = new ArrayList<>();
        int count = 1;
        for (int s = 0; s < depth; s++, count *= radix) {
            for (int j = 1; j <= ports; j++) {
                pieces.add(new Piece(s, j * count, count));
            }
        }
        int rest = n - count;
        int share = (int) Radix.ceilDiv(rest, ports);
        for (int offset = count; offset < n; offset += share) {
            pieces.add(new Piece(depth, offset, Math.min(share, n - offset)));
        }
        return pieces;
    }

    @Override
    public RankProgram program(Shape shape, int rank) {
        int n = shape.size();
        long b = shape.blockBytes();
        List<Piece> pieces = pieces(n, shape.ports());
        // A piece is the sender's prefix [0, length); positions a later step forwards must sit in TEMP.
        int steps = pieces.isEmpty() ? 0 : pieces.getLast().step() + 1;
        int[] longestPrefix = new int[steps + 1];
        for (Piece piece : pieces) {
            longestPrefix[piece.step()] = Math.max(longestPrefix[piece.step()], piece.length());
        }
        int[] forwardedLater = new int[steps + 1];
        for (int s = steps - 1; s >= 0; s--) {
            forwardedLater[s] = Math.max(forwardedLater[s + 1], longestPrefix[s + 1]);
        }
        boolean[] inTemp = new boolean[pieces.size()];
        int tempBlocks = 0;
        boolean sendsFromTemp = false;
        for (int i = 0; i < pieces.size(); i++) {
            Piece piece = pieces.get(i);
            int first = (rank + piece.offset()) % n;
            inTemp[i] = piece.offset() < forwardedLater[piece.step()] || first + piece.length() > n;
            if (inTemp[i]) {
                tempBlocks = Math.max(tempBlocks, piece.offset() + piece.length());
            }
            sendsFromTemp |= piece.length() > 1;
        }
        ProgramBuilder p = new ProgramBuilder(rank);
        long temp = p.allocateTemp(sendsFromTemp ? Math.max(tempBlocks, 1) * b : tempBlocks * b);
        if (sendsFromTemp) {
            p.copy(Buffer.SEND, 0, Buffer.TEMP, temp, b);
        } else {
            p.copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b);
        }
        for (int i = 0; i < pieces.size(); ) {
            int step = pieces.get(i).step();
            int end = i;
            while (end < pieces.size() && pieces.get(end).step() == step) {
                end++;
            }
            for (int j = i; j < end; j++) {
                Piece piece = pieces.get(j);
                int to = Math.floorMod(rank - piece.offset(), n);
                if (piece.length() == 1) {
                    p.put(to, Buffer.SEND, 0, b, step);
                } else {
                    p.put(to, Buffer.TEMP, temp, piece.length() * b, step);
                }
            }
            for (int j = i; j < end; j++) {
                Piece piece = pieces.get(j);
                int from = (rank + piece.offset()) % n;
                if (inTemp[j]) {
                    p.recv(from, step, Buffer.TEMP, temp + piece.offset() * b, piece.length() * b);
                } else {
                    p.recv(from, step, Buffer.RECV, from * b, piece.length() * b);
                }
            }
            i = end;
        }
        // Final shift, only for positions held in TEMP: position i -> block (rank + i) mod N.
        if (sendsFromTemp) {
            shiftOut(p, temp, 0, 1, rank, n, b);
        }
        for (int i = 0; i < pieces.size(); i++) {
            if (inTemp[i]) {
                shiftOut(p, temp, pieces.get(i).offset(), pieces.get(i).length(), rank, n, b);
            }
        }
        return p.build();
    }

    private static void shiftOut(ProgramBuilder p, long temp, int position, int length, int rank, int n, long b) {
        int first = (rank + position) % n;
        int head = Math.min(length, n - first);
        p.copy(Buffer.TEMP, temp + position * b, Buffer.RECV, first * b, head * b);
        p.copy(Buffer.TEMP, temp + (position + head) * b, Buffer.RECV, 0, (long) (length - head) * b);
    }

    @Override
    public CostTerms cost(Shape shape) {
        int n = shape.size();
        long b = shape.blockBytes();
        int steps = Radix.ceilLog(n, shape.ports() + 1);
        LinkTally tally = new LinkTally(shape.placement());
        for (Piece piece : pieces(n, shape.ports())) {
            for (int r = 0; r < n; r++) {
                tally.message(r, Math.floorMod(r - piece.offset(), n), piece.length() * b);
            }
        }
        return tally.toCost(steps, Radix.ceilDiv(n - 1, shape.ports()) * b,
                "ceil(log_{k+1} N)*ts + ceil((N-1)/k)*b*tau  [paper 000 eq. (1), any N]");
    }

    @Override
    public String summary() {
        return "k-port Bruck with the extra step split over the ports and the final shift into RECV; "
                + "ceil(log_{k+1} N)*ts + ceil((N-1)/k)*b*tau; any N, k; paper 000 sec. 5.1.2, paper 001 sec. 6.1.3";
    }
}
