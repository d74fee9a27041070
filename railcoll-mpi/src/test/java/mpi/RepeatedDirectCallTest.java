package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A repeated blocking collective on memory railcoll moves as it is goes straight to railcoll (decisions 0209, 0212);
 * this checks that such a repeat is taken only when every argument is the last call's. For each collective the repeat
 * covers, calls alternate between a base argument set and sets that differ from it in exactly one argument (the send
 * or receive buffer, an offset by {@code MPI.slice}, the count, the datatype, the op, the root, in place or not), each
 * set called twice in a row so that each is also repeated; before every call every buffer of every rank is refilled
 * with seeded random bytes, and after it every byte of every buffer of this rank is checked against a sequential
 * reference computed from what all ranks held. A buffer's position, which the bindings ignore, is moved too: that is
 * the same call. Real ranks ({@link InProcessComms}, one thread each) on 1, 2, 3 and 5 ranks, 3 and 5 on two nodes of
 * uneven sizes (shared memory within a node, loopback TCP between them); the collectives that move bytes also on
 * {@code byte[]} arrays, which railcoll moves as they are too.
 */
class RepeatedDirectCallTest {
    /** The seed of every buffer's contents; another by {@code -Drailcoll.test.seed=N}. */
    private static final long SEED = Long.getLong("railcoll.test.seed", System.nanoTime());
    /** Buffers per rank: base send, base receive, another send, another receive. */
    private static final int POOL = 4;
    private static final int COUNT = 5;
    private static final int OTHER_COUNT = 2;
    private static final int SEND_OFFSET = 3;
    private static final int RECV_OFFSET = 5;
    private static final int POSITION = 7;

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** Two bytes as a derived contiguous type: the datatype a {@code byte[]} can take besides {@code MPI.BYTE}. */
    private static Datatype pair;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
        pair = Datatype.createContiguous(2, MPI.BYTE);
        pair.commit();
    }

    enum Coll {
        BCAST(false, true, false), GATHER(false, true, false), SCATTER(false, true, false),
        ALL_GATHER(false, false, true), ALL_TO_ALL(false, false, false), ALL_REDUCE(true, false, true),
        REDUCE(true, true, true), REDUCE_SCATTER_BLOCK(true, false, true), SCAN(true, false, true),
        EX_SCAN(true, false, true);

        final boolean reduction;
        final boolean rooted;
        final boolean hasInPlace;

        Coll(boolean reduction, boolean rooted, boolean hasInPlace) {
            this.reduction = reduction;
            this.rooted = rooted;
            this.hasInPlace = hasInPlace;
        }
    }

    /**
     * One call's arguments: buffers as indices into this rank's pool, offsets (a non-zero one passes {@code MPI.slice}
     * of the pool buffer, the same slice object at every call), the position set on the buffer passed first.
     */
    record Args(String label, int send, int sendOffset, int recv, int recvOffset, int count, Datatype type, Op op,
                int root, boolean inPlace, int position) {
        Args with(String what, int send, int sendOffset, int recv, int recvOffset, int count, Datatype type, Op op,
                  int root, boolean inPlace, int position) {
            return new Args(what, send, sendOffset, recv, recvOffset, count, type, op, root, inPlace, position);
        }
    }

    @ParameterizedTest(name = "nodes {0}")
    @ValueSource(strings = {"1", "2", "1,2", "2,3"})
    void everyRepeatIsTheCallOfItsArguments(String nodes) throws Exception {
        check(nodes, false);
    }

    /**
     * The same on {@code byte[]} arrays (offsets by {@code MPI.slice}: heap buffers over them), which railcoll also
     * moves as they are, for the collectives that move bytes; the other datatype is a derived contiguous one.
     */
    @ParameterizedTest(name = "nodes {0}")
    @ValueSource(strings = {"2", "2,3"})
    void everyRepeatOnByteArraysIsTheCallOfItsArguments(String nodes) throws Exception {
        check(nodes, true);
    }

    private static void check(String nodes, boolean heap) throws Exception {
        int[] nodeSizes = Arrays.stream(nodes.split(",")).mapToInt(Integer::parseInt).toArray();
        List<Object> done = InProcessComms.onNodes(nodeSizes, (comm, rank) -> {
            int size = comm.getSize();
            int bytes = COUNT * 8 * size + 16;
            Object[] pool = new Object[POOL];
            for (int w = 0; w < POOL; w++) {
                pool[w] = heap ? new byte[bytes] : MPI.newByteBuffer(bytes);
            }
            Map<Integer, ByteBuffer> slices = new HashMap<>();
            int calls = 0;
            for (Coll coll : Coll.values()) {
                if (heap && coll.reduction) {
                    continue;
                }
                List<Args> variants = variants(coll, size, heap);
                Args base = variants.get(0);
                List<Args> sequence = new ArrayList<>();
                for (Args v : variants.subList(1, variants.size())) {
                    sequence.addAll(List.of(base, base, v, v, base, v));
                }
                for (Args a : sequence) {
                    int call = calls++;
                    for (int w = 0; w < POOL; w++) {
                        byte[] now = contents(coll, call, rank, w, bytes);
                        if (pool[w] instanceof byte[] array) {
                            System.arraycopy(now, 0, array, 0, bytes);
                        } else {
                            ((ByteBuffer) pool[w]).put(0, now);
                        }
                    }
                    run(comm, coll, a, pool, slices);
                    byte[][] want = expected(coll, a, call, rank, size, bytes);
                    int[] ignore = ignored(coll, a, size);
                    for (int w = 0; w < POOL; w++) {
                        byte[] got = pool[w] instanceof byte[] array ? array.clone() : new byte[bytes];
                        if (pool[w] instanceof ByteBuffer b) {
                            b.get(0, got);
                        }
                        if (ignore != null && ignore[0] == w) {
                            Arrays.fill(got, ignore[1], ignore[2], (byte) 0);
                            Arrays.fill(want[w], ignore[1], ignore[2], (byte) 0);
                        }
                        int finalW = w;
                        assertArrayEquals(want[w], got, () -> coll + " " + a.label() + " " + a + ", call " + call + " on rank " + rank
                                + " of " + size + ", buffer " + finalW + " (seed " + SEED + ")");
                    }
                }
            }
            return calls;
        });
        assertEquals(Arrays.stream(nodeSizes).sum(), done.size());
    }

    /** The base set first, then one set per argument it can differ in, each differing in that argument alone. */
    private static List<Args> variants(Coll coll, int size, boolean heap) {
        Datatype type = coll.reduction ? MPI.INT : MPI.BYTE;
        Datatype otherType = coll.reduction ? MPI.LONG : heap ? pair : MPI.SHORT;
        Op op = coll.reduction ? MPI.SUM : null;
        int root = coll.rooted ? size - 1 : 0;
        Args base = new Args("base", 0, 0, 1, 0, COUNT, type, op, root, false, 0);
        List<Args> all = new ArrayList<>();
        all.add(base);
        boolean sends = coll != Coll.BCAST;
        if (sends) {
            all.add(base.with("send buffer", 2, 0, 1, 0, COUNT, type, op, root, false, 0));
            all.add(base.with("send offset", 0, SEND_OFFSET, 1, 0, COUNT, type, op, root, false, 0));
        }
        all.add(base.with("receive buffer", 0, 0, 3, 0, COUNT, type, op, root, false, 0));
        all.add(base.with("receive offset", 0, 0, 1, RECV_OFFSET, COUNT, type, op, root, false, 0));
        all.add(base.with("count", 0, 0, 1, 0, OTHER_COUNT, type, op, root, false, 0));
        all.add(base.with("type", 0, 0, 1, 0, COUNT, otherType, op, root, false, 0));
        if (coll.reduction) {
            all.add(base.with("op", 0, 0, 1, 0, COUNT, type, MPI.MAX, root, false, 0));
        }
        if (coll.rooted) {
            all.add(base.with("root", 0, 0, 1, 0, COUNT, type, op, 0, false, 0));
        }
        if (coll.hasInPlace) {
            all.add(base.with("in place", 0, 0, 1, 0, COUNT, type, op, root, true, 0));
        }
        if (!heap) { // a byte[] has no position
            all.add(base.with("position (ignored: the same call)", 0, 0, 1, 0, COUNT, type, op, root, false, POSITION));
        }
        return all;
    }

    private static Object buffer(Object[] pool, Map<Integer, ByteBuffer> slices, int which, int offset) {
        if (offset == 0) {
            return pool[which];
        }
        return slices.computeIfAbsent(which * 1000 + offset, k -> pool[which] instanceof byte[] array
                ? MPI.slice(array, offset) : MPI.slice((ByteBuffer) pool[which], offset));
    }

    private static void run(Intracomm comm, Coll coll, Args a, Object[] pool, Map<Integer, ByteBuffer> slices)
            throws MPIException {
        Object s = buffer(pool, slices, a.send(), a.sendOffset());
        Object r = buffer(pool, slices, a.recv(), a.recvOffset());
        if (a.position() > 0) {
            ((ByteBuffer) (coll == Coll.BCAST || a.inPlace() ? r : s)).position(a.position());
        }
        int n = a.count();
        Datatype t = a.type();
        Op op = a.op();
        int root = a.root();
        switch (coll) {
            case BCAST -> comm.bcast(r, n, t, root);
            case GATHER -> comm.gather(s, n, t, r, n, t, root);
            case SCATTER -> comm.scatter(s, n, t, r, n, t, root);
            case ALL_GATHER -> {
                if (a.inPlace()) {
                    comm.allGather(r, n, t);
                } else {
                    comm.allGather(s, n, t, r, n, t);
                }
            }
            case ALL_TO_ALL -> comm.allToAll(s, n, t, r, n, t);
            case ALL_REDUCE -> {
                if (a.inPlace()) {
                    comm.allReduce(r, n, t, op);
                } else {
                    comm.allReduce(s, r, n, t, op);
                }
            }
            case REDUCE -> {
                if (a.inPlace()) {
                    comm.reduce(r, n, t, op, root);
                } else {
                    comm.reduce(s, r, n, t, op, root);
                }
            }
            case REDUCE_SCATTER_BLOCK -> {
                if (a.inPlace()) {
                    comm.reduceScatterBlock(r, n, t, op);
                } else {
                    comm.reduceScatterBlock(s, r, n, t, op);
                }
            }
            case SCAN -> {
                if (a.inPlace()) {
                    comm.scan(r, n, t, op);
                } else {
                    comm.scan(s, r, n, t, op);
                }
            }
            case EX_SCAN -> {
                if (a.inPlace()) {
                    comm.exScan(r, n, t, op);
                } else {
                    comm.exScan(s, r, n, t, op);
                }
            }
        }
    }

    /** Buffer {@code which} of {@code rank} before call {@code call}. */
    private static byte[] contents(Coll coll, int call, int rank, int which, int bytes) {
        Random random = new Random(SEED ^ (coll.ordinal() * 0x9E3779B97F4A7C15L) ^ ((long) call << 20)
                ^ ((long) rank << 8) ^ which);
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return b;
    }

    private static int elementBytes(Datatype t) {
        return t == MPI.LONG ? 8 : t == MPI.INT ? 4 : t == MPI.SHORT || t == pair ? 2 : 1;
    }

    /** Every buffer of rank {@code me} after the call, computed from what every rank held before it. */
    private static byte[][] expected(Coll coll, Args a, int call, int me, int size, int bytes) {
        byte[][][] before = new byte[size][POOL][];
        for (int r = 0; r < size; r++) {
            for (int w = 0; w < POOL; w++) {
                before[r][w] = contents(coll, call, r, w, bytes);
            }
        }
        byte[][] mine = new byte[POOL][];
        for (int w = 0; w < POOL; w++) {
            mine[w] = before[me][w].clone();
        }
        int nb = a.count() * elementBytes(a.type());
        int so = a.sendOffset();
        int ro = a.recvOffset();
        byte[] out = mine[a.recv()];
        // In place, each rank's contribution is the receive buffer as it was.
        int src = a.inPlace() ? a.recv() : a.send();
        int srcOffset = a.inPlace() ? ro : so;
        switch (coll) {
            case BCAST -> System.arraycopy(before[a.root()][a.recv()], ro, out, ro, nb);
            case GATHER -> {
                if (me == a.root()) {
                    for (int r = 0; r < size; r++) {
                        System.arraycopy(before[r][a.send()], so, out, ro + r * nb, nb);
                    }
                }
            }
            case SCATTER -> System.arraycopy(before[a.root()][a.send()], so + me * nb, out, ro, nb);
            case ALL_GATHER -> {
                for (int r = 0; r < size; r++) {
                    int from = a.inPlace() ? ro + r * nb : so;
                    System.arraycopy(before[r][src], from, out, ro + r * nb, nb);
                }
            }
            case ALL_TO_ALL -> {
                for (int r = 0; r < size; r++) {
                    System.arraycopy(before[r][a.send()], so + me * nb, out, ro + r * nb, nb);
                }
            }
            case ALL_REDUCE -> fold(a, before, src, srcOffset, 0, size, out, ro);
            case REDUCE -> {
                if (me == a.root()) {
                    fold(a, before, src, srcOffset, 0, size, out, ro);
                }
            }
            case REDUCE_SCATTER_BLOCK -> fold(a, before, src, srcOffset + me * nb, 0, size, out, ro);
            case SCAN -> fold(a, before, src, srcOffset, 0, me + 1, out, ro);
            case EX_SCAN -> {
                if (me > 0) {
                    fold(a, before, src, srcOffset, 0, me, out, ro);
                }
            }
        }
        return mine;
    }

    /** The bytes MPI leaves undefined: {buffer, from, to}, or null. */
    private static int[] ignored(Coll coll, Args a, int size) {
        if (coll == Coll.REDUCE_SCATTER_BLOCK && a.inPlace()) {
            // In place, the result is the first block; what the other blocks hold after the call is not defined.
            int nb = a.count() * elementBytes(a.type());
            return new int[] {a.recv(), a.recvOffset() + nb, a.recvOffset() + size * nb};
        }
        return null;
    }

    /** {@code out[at..]} = the op of ranks {@code [from, to)}'s elements from byte {@code offset} of buffer {@code w}. */
    private static void fold(Args a, byte[][][] before, int w, int offset, int from, int to, byte[] out, int at) {
        boolean sum = a.op() == MPI.SUM;
        for (int i = 0; i < a.count(); i++) {
            if (a.type() == MPI.LONG) {
                long v = (long) LONGS.get(before[from][w], offset + 8 * i);
                for (int r = from + 1; r < to; r++) {
                    long x = (long) LONGS.get(before[r][w], offset + 8 * i);
                    v = sum ? v + x : Math.max(v, x);
                }
                LONGS.set(out, at + 8 * i, v);
            } else {
                int v = (int) INTS.get(before[from][w], offset + 4 * i);
                for (int r = from + 1; r < to; r++) {
                    int x = (int) INTS.get(before[r][w], offset + 4 * i);
                    v = sum ? v + x : Math.max(v, x);
                }
                INTS.set(out, at + 4 * i, v);
            }
        }
    }

    /**
     * A repeat is keyed on the datatype and op objects and the communicator, not on what they describe: a datatype or
     * op freed since the last like calls is an error, not a repeat; a fresh datatype of the same layout is a new call
     * that works; a freed communicator is an error; a collection in between changes nothing. Two ranks.
     */
    @Test
    void freedDatatypesOpsAndCommunicatorsAreErrorsNotRepeats() throws Exception {
        List<Object> done = InProcessComms.onRanks(2, (comm, rank) -> {
            ByteBuffer buf = MPI.newByteBuffer(16);
            ByteBuffer out = MPI.newByteBuffer(32);
            Datatype pair = Datatype.createContiguous(2, MPI.BYTE);
            pair.commit();
            for (int round = 0; round < 3; round++) {
                fillBytes(buf, rank * 100 + round);
                comm.bcast(buf, 4, pair, 1);
                assertBytes(buf, 100 + round, 8, "bcast round " + round);
                System.gc();
            }
            pair.free();
            MPIException typeFreed = assertThrows(MPIException.class, () -> comm.bcast(buf, 4, pair, 1));
            assertEquals(MPI.ERR_TYPE, typeFreed.getErrorClass(), typeFreed.getMessage());
            Datatype samePair = Datatype.createContiguous(2, MPI.BYTE);
            samePair.commit();
            fillBytes(buf, rank * 100 + 7);
            comm.bcast(buf, 4, samePair, 1);
            assertBytes(buf, 107, 8, "bcast with a fresh datatype of the same layout");

            Op sum = new Op(new UserFunction() {
                @Override
                public void call(Object in, Object inOut, int count, Datatype type) {
                    int[] a = (int[]) in;
                    int[] b = (int[]) inOut;
                    for (int i = 0; i < count; i++) {
                        b[i] = a[i] + b[i];
                    }
                }
            }, true);
            for (int round = 0; round < 3; round++) {
                buf.putInt(0, rank + round);
                comm.reduce(buf, out, 1, MPI.INT, sum, 0);
                if (rank == 0) {
                    assertEquals(1 + 2 * round, out.getInt(0), "reduce by a user op, round " + round);
                }
            }
            sum.free();
            MPIException opFreed = assertThrows(MPIException.class, () -> comm.reduce(buf, out, 1, MPI.INT, sum, 0));
            assertEquals(MPI.ERR_OP, opFreed.getErrorClass(), opFreed.getMessage());

            Intracomm dup = comm.dup();
            for (int round = 0; round < 3; round++) {
                fillBytes(buf, rank * 100 + round);
                dup.allToAll(buf, 4, MPI.BYTE, out, 4, MPI.BYTE);
                for (int from = 0; from < 2; from++) {
                    for (int i = 0; i < 4; i++) {
                        assertEquals((byte) (from * 100 + round + rank * 4 + i), out.get(from * 4 + i),
                                "allToAll on a dup, round " + round);
                    }
                }
            }
            dup.free();
            MPIException commFreed = assertThrows(MPIException.class,
                    () -> dup.allToAll(buf, 4, MPI.BYTE, out, 4, MPI.BYTE));
            assertEquals(MPI.ERR_COMM, commFreed.getErrorClass(), commFreed.getMessage());
            return null;
        });
        assertEquals(2, done.size());
    }

    private static void fillBytes(ByteBuffer b, int first) {
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (first + i));
        }
    }

    private static void assertBytes(ByteBuffer b, int first, int bytes, String what) {
        for (int i = 0; i < bytes; i++) {
            assertEquals((byte) (first + i), b.get(i), what + ", byte " + i);
        }
    }
}
