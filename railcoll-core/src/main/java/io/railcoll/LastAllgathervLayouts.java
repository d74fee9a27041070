package io.railcoll;

import java.util.Arrays;

/**
 * The block layouts of a communicator's last all-gatherv, kept so that a loop of calls with the same counts,
 * displacements and buffer sizes builds none (issue 21: a hot path allocates nothing per call; decision 0160). A call
 * is compared with the kept one element by element, which allocates nothing; a different call builds its layouts and
 * replaces the kept ones. The layouts are built over copies of the counts and displacements, so a program that
 * changes its arrays between calls gets new ones. The layouts are immutable, so a non-blocking call still running on
 * the kept ones is not disturbed when they are replaced.
 *
 * <p>Threading: the communicator's calling thread, under its gate.
 */
final class LastAllgathervLayouts {
    /** This rank in the communicator: whose block the send layout describes. */
    private final int rank;
    private String call;
    private long[] counts;
    private long[] displs;
    private long recvBytes;
    /** The send buffer's size, or -1 in place. */
    private long sendBytes;
    private VariableLayout in;
    private VariableLayout out;

    LastAllgathervLayouts(int rank) {
        this.rank = rank;
    }

    /** The receive layout of the call described, from the kept one or built (and then kept with its send layout). */
    VariableLayout in(String call, long[] counts, long[] displs, long recvBytes, long sendBytes) {
        if (!sameAs(call, counts, displs, recvBytes, sendBytes)) {
            build(call, counts, displs, recvBytes, sendBytes);
        }
        return in;
    }

    /** The send layout of the call last passed to {@link #in}. */
    VariableLayout out() {
        return out;
    }

    private boolean sameAs(String call, long[] counts, long[] displs, long recvBytes, long sendBytes) {
        return in != null && call.equals(this.call) && recvBytes == this.recvBytes && sendBytes == this.sendBytes
                && Arrays.equals(counts, this.counts) && Arrays.equals(displs, this.displs);
    }

    private void build(String call, long[] counts, long[] displs, long recvBytes, long sendBytes) {
        long[] c = counts.clone();
        long[] d = displs == null ? null : displs.clone();
        VariableLayout newIn = new VariableLayout(call, "recv", c, d, recvBytes, true);
        VariableLayout newOut = sendBytes < 0
                ? new VariableLayout(call, "recv (this rank's own block, in place)", new long[] {c[rank]},
                        new long[] {newIn.displacement(rank)}, recvBytes, false)
                : new VariableLayout(call, "send", new long[] {c[rank]}, null, sendBytes, false);
        this.call = call;
        this.counts = c;
        this.displs = d;
        this.recvBytes = recvBytes;
        this.sendBytes = sendBytes;
        this.in = newIn;
        this.out = newOut;
    }
}
