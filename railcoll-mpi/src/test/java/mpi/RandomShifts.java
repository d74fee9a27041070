package mpi;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random call test's shift steps (decision 0219): {@code sendRecv} or {@code sendRecvReplace} by a random distance
 * on a ring, or on a line whose ends talk to {@code PROC_NULL}, wildcards or not; send and receive types of one
 * signature and different layouts, room for one element more than arrives; buffers and the status checked.
 */
final class RandomShifts {
    private RandomShifts() {
    }

    /** sendRecv or sendRecvReplace by distance k around a ring, or along a line whose ends talk to PROC_NULL. */
    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step)
            throws MPIException {
        RandomTypes.Prim p = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        int k = rnd.nextInt(size);
        boolean ring = rnd.nextBoolean();
        boolean replace = rnd.nextBoolean();
        int tag = rnd.nextInt(5);
        boolean anySource = rnd.nextBoolean();
        boolean anyTag = rnd.nextBoolean();
        RandomTypes.Model st = RandomTypes.random(rnd, p, 2);
        RandomTypes.Model drawn = RandomTypes.random(rnd, p, 2);
        RandomTypes.Model rt = replace || drawn.leaves() == 0 || st.leaves() == 0 ? st : drawn;
        int units = rnd.nextInt(3);
        int sc;
        int rc;
        if (rt == st) {
            sc = units;
            rc = units;
        } else {
            int g = gcd(st.leaves(), rt.leaves());
            sc = units * rt.leaves() / g;
            rc = units * st.leaves() / g;
        }
        int extra = replace ? 0 : rnd.nextInt(2);
        int dest = ring ? (rank + k) % size : rank + k < size ? rank + k : MPI.PROC_NULL;
        int source = ring ? Math.floorMod(rank - k, size) : rank - k >= 0 ? rank - k : MPI.PROC_NULL;
        String name = (replace ? "sendRecvReplace" : "sendRecv") + " by " + k + (ring ? " on a ring" : " on a line")
                + (anySource ? " ANY_SOURCE" : "") + (anyTag ? " ANY_TAG" : "") + " tag " + tag;
        RandomCall c = new RandomCall(name, seed, step, rank, false);
        long[] s = new long[size];
        Arrays.fill(s, sc);
        RandomCall.Arg a = c.arg(st, s, false);
        long[] r = new long[size];
        Arrays.fill(r, rc + extra);
        RandomCall.Arg b = replace ? a : c.arg(rt, r, false);
        int recvSource = source == MPI.PROC_NULL || !anySource ? source : MPI.ANY_SOURCE;
        int recvTag = source == MPI.PROC_NULL || !anyTag ? tag : MPI.ANY_TAG;
        long leaves = (long) sc * st.leaves();
        if (source != MPI.PROC_NULL) {
            RandomMessages.expectLeaves(b, leaves, a.packed(source, 0, sc));
        }
        comm.barrier(); // one message per rank in this step: ANY_SOURCE cannot take another step's
        Status got = replace ? comm.sendRecvReplace(a.passed(), sc, st.type(), dest, tag, recvSource, recvTag)
                : comm.sendRecv(a.passed(), sc, st.type(), dest, tag, b.passed(), rc + extra, rt.type(), recvSource,
                recvTag);
        String where = "seed " + seed + " step " + step + " " + name + " rank " + rank + " types " + st + " / " + rt;
        if (source == MPI.PROC_NULL) {
            if (got.getSource() != MPI.PROC_NULL || got.getTag() != MPI.ANY_TAG || got.getCount(rt.type()) != 0) {
                throw new AssertionError(where + ": from PROC_NULL the status has source " + got.getSource() + " tag "
                        + got.getTag() + " count " + got.getCount(rt.type()));
            }
        } else {
            if (got.getSource() != source || got.getTag() != tag) {
                throw new AssertionError(where + ": status source " + got.getSource() + " tag " + got.getTag()
                        + ", expected " + source + " and " + tag);
            }
            RandomMessages.checkCounts(where, got, leaves, rt.leaves() == 0 ? RandomTypes.predefined(p) : rt, p);
        }
        c.check();
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
