package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.MessageRequest;
import io.railcoll.Request;
import io.railcoll.schedule.Collective;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random calls that move bytes without combining them: barrier, broadcast, gather, scatter, all-gather,
 * all-to-all, their v-variants and point-to-point pairs. Every block's data is {@link RandomCall#datum} of its
 * source rank (all-to-all: of the pair), so each rank knows every block it must receive.
 */
final class RandomDataCalls {
    private RandomDataCalls() {
    }

    static RandomBuffer.Family family(SplittableRandom local) {
        return RandomBuffer.Family.values()[local.nextInt(3)];
    }

    /**
     * What the data calls share: the collective and a description of the shared parameters (a format of the sizes
     * and the root).
     */
    abstract static class DataCall extends RandomCall {
        private final Collective collective;
        private final String text;

        DataCall(Collective collective, String text) {
            this.collective = collective;
            this.text = text;
        }

        @Override
        final Collective collective() {
            return collective;
        }

        /** The sizes as the description's first argument. */
        abstract Object sizes();

        @Override
        final String describe() {
            return String.format(text, sizes(), root());
        }
    }

    /**
     * A call with one shared block size {@code b}; the root, where {@code rooted}, drawn after it (the constructor's
     * argument {@code b} is drawn before the body runs, as the calls always drew them).
     */
    abstract static class Sized extends DataCall {
        final long b;

        Sized(Collective collective, String text, long b, SplittableRandom shared, int n, boolean rooted) {
            super(collective, text);
            this.b = b;
            if (rooted) {
                drawRoot(shared, n);
            }
        }

        @Override
        final Object sizes() {
            return b;
        }

        @Override
        final long selectionBytes() {
            return b;
        }
    }

    /** A call with per-rank counts (and this rank's displacements); the root, where {@code rooted}, drawn after them. */
    abstract static class Counted extends DataCall {
        final long[] counts;
        long[] displs;

        Counted(Collective collective, String text, long[] counts, SplittableRandom shared, int n, boolean rooted) {
            super(collective, text);
            this.counts = counts;
            if (rooted) {
                drawRoot(shared, n);
            }
        }

        @Override
        final Object sizes() {
            return Arrays.toString(counts);
        }

        @Override
        final long selectionBytes() {
            return largest(counts);
        }
    }

    static final class Barrier extends RandomCall {
        @Override
        Collective collective() {
            return Collective.BARRIER;
        }

        @Override
        String describe() {
            return "barrier";
        }

        @Override
        void prepare(Ctx c) {
        }

        @Override
        Request start(Communicator comm) {
            return comm.ibarrier();
        }

        @Override
        void run(Communicator comm) {
            comm.barrier();
        }
    }

    /** Broadcast of one buffer ({@code recv}: the root's input, every other rank's output). */
    static final class Broadcast extends Sized {
        Broadcast(SplittableRandom shared, int n) {
            super(Collective.BROADCAST, "broadcast of %d B from root %d", bytes(shared, 1, 6 << 20), shared, n, true);
        }

        @Override
        void prepare(Ctx c) {
            f = family(c.local());
            recv = buffer("buffer", f, b);
            if (c.me() == root()) {
                fillData(recv.body, c.salt(), root());
            }
            fillData(snapshot(recv), c.salt(), root());
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.ibroadcast(seg(recv), root());
                case ARRAY -> comm.ibroadcast(arr(recv), root());
                case BUFFER -> comm.ibroadcast(buf(recv), root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.broadcast(seg(recv), root());
                case ARRAY -> comm.broadcast(arr(recv), root());
                case BUFFER -> comm.broadcast(buf(recv), root());
            }
        }
    }

    /** Gather: block i of the root's recv is rank i's data; a non-root's recv, when given, is never touched. */
    static final class Gather extends Sized {
        Gather(SplittableRandom shared, int n) {
            super(Collective.GATHER, "gather of %d B per rank to root %d", bytes(shared, n, 6 << 20), shared, n, true);
        }

        @Override
        void prepare(Ctx c) {
            f = family(c.local());
            send = buffer("send", f, b);
            fillData(send.body, c.salt(), c.me());
            snapshot(send);
            if (c.me() == root() || c.local().nextBoolean()) {
                recv = buffer("recv", f, b * c.n());
                MemorySegment e = snapshot(recv);
                if (c.me() == root()) {
                    for (int r = 0; r < c.n(); r++) {
                        fillData(e.asSlice(r * b, b), c.salt(), r);
                    }
                }
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.igather(seg(send), seg(recv), root());
                case ARRAY -> comm.igather(arr(send), arr(recv), root());
                case BUFFER -> comm.igather(buf(send), buf(recv), root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.gather(seg(send), seg(recv), root());
                case ARRAY -> comm.gather(arr(send), arr(recv), root());
                case BUFFER -> comm.gather(buf(send), buf(recv), root());
            }
        }
    }

    /** Scatter; the root sometimes in place (no recv: its block stays in send). */
    static final class Scatter extends Sized {
        Scatter(SplittableRandom shared, int n) {
            super(Collective.SCATTER, "scatter of %d B per rank from root %d", bytes(shared, n, 6 << 20), shared, n,
                    true);
        }

        @Override
        void prepare(Ctx c) {
            f = family(c.local());
            boolean inPlace = c.me() == root() && c.local().nextInt(3) == 0;
            if (c.me() == root()) {
                send = buffer("send", f, b * c.n());
                for (int r = 0; r < c.n(); r++) {
                    fillData(send.body.asSlice(r * b, b), c.salt(), r);
                }
                snapshot(send);
            }
            if (!inPlace) {
                recv = buffer("recv", f, b);
                fillData(snapshot(recv), c.salt(), c.me());
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.iscatter(seg(send), seg(recv), root());
                case ARRAY -> comm.iscatter(arr(send), arr(recv), root());
                case BUFFER -> comm.iscatter(buf(send), buf(recv), root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.scatter(seg(send), seg(recv), root());
                case ARRAY -> comm.scatter(arr(send), arr(recv), root());
                case BUFFER -> comm.scatter(buf(send), buf(recv), root());
            }
        }
    }

    static final class Allgather extends Sized {
        Allgather(SplittableRandom shared, int n) {
            super(Collective.ALLGATHER, "allgather of %d B per rank", bytes(shared, n, 6 << 20), shared, n, false);
        }

        @Override
        void prepare(Ctx c) {
            f = family(c.local());
            send = buffer("send", f, b);
            fillData(send.body, c.salt(), c.me());
            snapshot(send);
            recv = buffer("recv", f, b * c.n());
            MemorySegment e = snapshot(recv);
            for (int r = 0; r < c.n(); r++) {
                fillData(e.asSlice(r * b, b), c.salt(), r);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.iallgather(seg(send), seg(recv));
                case ARRAY -> comm.iallgather(arr(send), arr(recv));
                case BUFFER -> comm.iallgather(buf(send), buf(recv));
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.allgather(seg(send), seg(recv));
                case ARRAY -> comm.allgather(arr(send), arr(recv));
                case BUFFER -> comm.allgather(buf(send), buf(recv));
            }
        }
    }

    /** All-to-all: block j of rank i's send is the data of pair i*n+j. */
    static final class Alltoall extends Sized {
        Alltoall(SplittableRandom shared, int n) {
            super(Collective.ALLTOALL, "alltoall of %d B per pair", bytes(shared, n, 6 << 20), shared, n, false);
        }

        @Override
        void prepare(Ctx c) {
            int n = c.n();
            f = family(c.local());
            send = buffer("send", f, b * n);
            for (int j = 0; j < n; j++) {
                fillData(send.body.asSlice(j * b, b), c.salt(), (long) c.me() * n + j);
            }
            snapshot(send);
            recv = buffer("recv", f, b * n);
            MemorySegment e = snapshot(recv);
            for (int i = 0; i < n; i++) {
                fillData(e.asSlice(i * b, b), c.salt(), (long) i * n + c.me());
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.ialltoall(seg(send), seg(recv));
                case ARRAY -> comm.ialltoall(arr(send), arr(recv));
                case BUFFER -> comm.ialltoall(buf(send), buf(recv));
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.alltoall(seg(send), seg(recv));
                case ARRAY -> comm.alltoall(arr(send), arr(recv));
                case BUFFER -> comm.alltoall(buf(send), buf(recv));
            }
        }
    }

    /** Per-rank counts: zeros now and then, sizes as {@link RandomCall#bytes}, all small now and then. */
    static long[] counts(SplittableRandom shared, int n, long maxTotal) {
        long[] counts = new long[n];
        boolean small = shared.nextBoolean();
        for (int i = 0; i < n; i++) {
            counts[i] = shared.nextInt(4) == 0 ? 0 : small ? shared.nextInt(0, 300) : RandomCall.bytes(shared, n, maxTotal);
        }
        return counts;
    }

    /**
     * This rank's own displacements for {@code counts}: null (packed) now and then, else the blocks in a random
     * order with random gaps, which the call must leave as they were. Returns the displacements; the length the
     * buffer needs is {@code end(counts, displs)}.
     */
    static long[] displs(SplittableRandom local, long[] counts) {
        if (local.nextInt(3) == 0) {
            return null;
        }
        int n = counts.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = local.nextInt(i + 1);
            Integer t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        long[] d = new long[n];
        long at = local.nextInt(0, 9);
        for (int k = 0; k < n; k++) {
            d[order[k]] = at;
            at += counts[order[k]] + local.nextInt(0, 9);
        }
        return d;
    }

    static long end(long[] counts, long[] displs) {
        long end = 0;
        for (int i = 0; i < counts.length; i++) {
            end = Math.max(end, (displs == null ? offsetOf(counts, null, i) : displs[i]) + counts[i]);
        }
        return end + 3;
    }

    static long offsetOf(long[] counts, long[] displs, int i) {
        if (displs != null) {
            return displs[i];
        }
        long s = 0;
        for (int k = 0; k < i; k++) {
            s += counts[k];
        }
        return s;
    }

    static long largest(long[] counts) {
        return Arrays.stream(counts).max().orElse(0);
    }

    /** Gatherv; the root sometimes in place (null send, its block already in recv), a 0-count rank sometimes null. */
    static final class Gatherv extends Counted {
        Gatherv(SplittableRandom shared, int n) {
            super(Collective.GATHERV, "gatherv of %s B to root %d", counts(shared, n, 6 << 20), shared, n, true);
        }

        @Override
        void prepare(Ctx c) {
            int me = c.me();
            f = family(c.local());
            boolean inPlace = me == root() && c.local().nextInt(3) == 0;
            if (!inPlace && !(counts[me] == 0 && c.local().nextBoolean())) {
                send = buffer("send", f, counts[me]);
                fillData(send.body, c.salt(), me);
                snapshot(send);
            }
            if (me == root()) {
                displs = displs(c.local(), counts);
                recv = buffer("recv", f, end(counts, displs));
                if (inPlace) {
                    fillData(recv.body.asSlice(offsetOf(counts, displs, me), counts[me]), c.salt(), me);
                }
                MemorySegment e = snapshot(recv);
                for (int r = 0; r < c.n(); r++) {
                    fillData(e.asSlice(offsetOf(counts, displs, r), counts[r]), c.salt(), r);
                }
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.igatherv(seg(send), seg(recv), counts, displs, root());
                case ARRAY -> comm.igatherv(arr(send), arr(recv), counts, displs, root());
                case BUFFER -> comm.igatherv(buf(send), buf(recv), counts, displs, root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.gatherv(seg(send), seg(recv), counts, displs, root());
                case ARRAY -> comm.gatherv(arr(send), arr(recv), counts, displs, root());
                case BUFFER -> comm.gatherv(buf(send), buf(recv), counts, displs, root());
            }
        }
    }

    /** Scatterv; the root sometimes in place (null recv), a 0-count rank sometimes null. */
    static final class Scatterv extends Counted {
        Scatterv(SplittableRandom shared, int n) {
            super(Collective.SCATTERV, "scatterv of %s B from root %d", counts(shared, n, 6 << 20), shared, n, true);
        }

        @Override
        void prepare(Ctx c) {
            int me = c.me();
            f = family(c.local());
            boolean inPlace = me == root() && c.local().nextInt(3) == 0;
            if (me == root()) {
                displs = displs(c.local(), counts);
                send = buffer("send", f, end(counts, displs));
                for (int r = 0; r < c.n(); r++) {
                    fillData(send.body.asSlice(offsetOf(counts, displs, r), counts[r]), c.salt(), r);
                }
                snapshot(send);
            }
            if (!inPlace && !(counts[me] == 0 && c.local().nextBoolean())) {
                // Longer than the count now and then: only the first counts[me] bytes are written.
                recv = buffer("recv", f, counts[me] + (c.local().nextInt(4) == 0 ? 5 : 0));
                fillData(snapshot(recv).asSlice(0, counts[me]), c.salt(), me);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.iscatterv(seg(send), counts, displs, seg(recv), root());
                case ARRAY -> comm.iscatterv(arr(send), counts, displs, arr(recv), root());
                case BUFFER -> comm.iscatterv(buf(send), counts, displs, buf(recv), root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.scatterv(seg(send), counts, displs, seg(recv), root());
                case ARRAY -> comm.scatterv(arr(send), counts, displs, arr(recv), root());
                case BUFFER -> comm.scatterv(buf(send), counts, displs, buf(recv), root());
            }
        }
    }

    /** Allgatherv with this rank's own displacements; sometimes in place (null send). */
    static final class Allgatherv extends Counted {
        Allgatherv(SplittableRandom shared, int n) {
            super(Collective.ALLGATHERV, "allgatherv of %s B", counts(shared, n, 6 << 20), shared, n, false);
        }

        @Override
        void prepare(Ctx c) {
            int me = c.me();
            f = family(c.local());
            boolean inPlace = c.local().nextInt(3) == 0;
            if (!inPlace) {
                send = buffer("send", f, counts[me]);
                fillData(send.body, c.salt(), me);
                snapshot(send);
            }
            displs = displs(c.local(), counts);
            recv = buffer("recv", f, end(counts, displs));
            if (inPlace) {
                fillData(recv.body.asSlice(offsetOf(counts, displs, me), counts[me]), c.salt(), me);
            }
            MemorySegment e = snapshot(recv);
            for (int r = 0; r < c.n(); r++) {
                fillData(e.asSlice(offsetOf(counts, displs, r), counts[r]), c.salt(), r);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.iallgatherv(seg(send), seg(recv), counts, displs);
                case ARRAY -> comm.iallgatherv(arr(send), arr(recv), counts, displs);
                case BUFFER -> comm.iallgatherv(buf(send), buf(recv), counts, displs);
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.allgatherv(seg(send), seg(recv), counts, displs);
                case ARRAY -> comm.allgatherv(arr(send), arr(recv), counts, displs);
                case BUFFER -> comm.allgatherv(buf(send), buf(recv), counts, displs);
            }
        }
    }

    /**
     * Alltoallv over a count matrix (row i: what rank i sends to each rank), symmetric now and then, and then
     * sometimes in place on a rank (null send: recv's blocks go out with the recv counts).
     */
    static final class Alltoallv extends DataCall {
        private final long[][] m;
        private final boolean symmetric;
        private long[] sendCounts;
        private long[] sendDispls;
        private long[] recvCounts;
        private long[] recvDispls;

        Alltoallv(SplittableRandom shared, int n) {
            super(Collective.ALLTOALLV, "alltoallv of %s B");
            m = new long[n][];
            symmetric = shared.nextInt(3) == 0;
            for (int i = 0; i < n; i++) {
                m[i] = counts(shared, n, (6 << 20) / n);
            }
            if (symmetric) {
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < i; j++) {
                        m[i][j] = m[j][i];
                    }
                }
            }
        }

        @Override
        Object sizes() {
            return Arrays.deepToString(m);
        }

        @Override
        long selectionBytes() {
            long most = 0;
            for (long[] row : m) {
                most = Math.max(most, largest(row));
            }
            return most;
        }

        @Override
        void prepare(Ctx c) {
            int n = c.n();
            int me = c.me();
            f = family(c.local());
            sendCounts = m[me].clone();
            recvCounts = new long[n];
            for (int i = 0; i < n; i++) {
                recvCounts[i] = m[i][me];
            }
            boolean inPlace = symmetric && c.local().nextInt(2) == 0;
            recvDispls = displs(c.local(), recvCounts);
            recv = buffer("recv", f, end(recvCounts, recvDispls));
            if (inPlace) {
                sendCounts = null;
                for (int j = 0; j < n; j++) {
                    fillData(recv.body.asSlice(offsetOf(recvCounts, recvDispls, j), recvCounts[j]), c.salt(),
                            (long) me * n + j);
                }
            } else {
                sendDispls = displs(c.local(), sendCounts);
                send = buffer("send", f, end(sendCounts, sendDispls));
                for (int j = 0; j < n; j++) {
                    fillData(send.body.asSlice(offsetOf(sendCounts, sendDispls, j), sendCounts[j]), c.salt(),
                            (long) me * n + j);
                }
                snapshot(send);
            }
            MemorySegment e = snapshot(recv);
            for (int i = 0; i < n; i++) {
                fillData(e.asSlice(offsetOf(recvCounts, recvDispls, i), recvCounts[i]), c.salt(), (long) i * n + me);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.ialltoallv(seg(send), sendCounts, sendDispls, seg(recv), recvCounts, recvDispls);
                case ARRAY -> comm.ialltoallv(arr(send), sendCounts, sendDispls, arr(recv), recvCounts, recvDispls);
                case BUFFER -> comm.ialltoallv(buf(send), sendCounts, sendDispls, buf(recv), recvCounts, recvDispls);
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.alltoallv(seg(send), sendCounts, sendDispls, seg(recv), recvCounts, recvDispls);
                case ARRAY -> comm.alltoallv(arr(send), sendCounts, sendDispls, arr(recv), recvCounts, recvDispls);
                case BUFFER -> comm.alltoallv(buf(send), sendCounts, sendDispls, buf(recv), recvCounts, recvDispls);
            }
        }
    }

    /**
     * Point-to-point: every rank sends to the rank {@code shift} above it and receives from the one below, with
     * sendRecv or with irecv and isend completed in a random order. Run blocking (no collective i-form).
     */
    static final class Shift extends RandomCall {
        private final long b;
        private final int shift;
        private final int tag;

        Shift(SplittableRandom shared, int n, int step) {
            b = bytes(shared, 1, 2 << 20);
            shift = shared.nextInt(n);
            tag = step % 30_000;
        }

        @Override
        Collective collective() {
            return null;
        }

        @Override
        boolean hasNonBlockingForm() {
            return false;
        }

        @Override
        String describe() {
            return "point-to-point shift by " + shift + " of " + b + " B, tag " + tag;
        }

        @Override
        void prepare(Ctx c) {
            int from = Math.floorMod(c.me() - shift, c.n());
            send = buffer("send", RandomBuffer.Family.SEGMENT, b);
            fillData(send.body, c.salt(), c.me());
            snapshot(send);
            recv = buffer("recv", RandomBuffer.Family.SEGMENT, b);
            fillData(snapshot(recv), c.salt(), from);
        }

        @Override
        Request start(Communicator comm) {
            throw new UnsupportedOperationException("run blocking");
        }

        @Override
        void run(Communicator comm) {
            int n = comm.size();
            int to = (comm.rank() + shift) % n;
            int from = Math.floorMod(comm.rank() - shift, n);
            if (ctx.local().nextBoolean()) {
                comm.sendRecv(send.segment(), to, tag, recv.segment(), from, tag);
                return;
            }
            MessageRequest r = comm.irecv(recv.segment(), from, tag);
            MessageRequest s = comm.isend(send.segment(), to, tag);
            if (ctx.local().nextBoolean()) {
                s.await();
                r.await();
            } else {
                Request.awaitAll(r, s);
            }
        }
    }
}
