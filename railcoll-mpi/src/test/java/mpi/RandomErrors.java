package mpi;

import java.util.SplittableRandom;

/**
 * The random call test's bad calls: each is wrong on every rank alike (so no rank waits for another), must raise the
 * documented exception with the right error class (errors are returned on the test's communicators), and must leave
 * every buffer as it was; the next call on the communicator must still work.
 */
final class RandomErrors {
    private RandomErrors() {
    }

    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step) throws MPIException {
        int kind = rnd.nextInt(16);
        RandomTypes.Model t = RandomTypes.random(rnd, RandomTypes.Prim.INT, 1);
        RandomCall c = new RandomCall("error " + kind, seed, step, rank, false);
        RandomCoverage.count("error kind " + kind);
        RandomCall.Arg a = c.arg(t, filled(size, 2), false);
        RandomCall.Arg b = c.arg(t, filled(size, 2L * size), false);
        int expectedClass = -1;
        Class<? extends Throwable> expected = MPIException.class;
        Throwable got = null;
        try {
            switch (kind) {
                case 0 -> {
                    expectedClass = MPI.ERR_ROOT;
                    comm.bcast(a.passed(), 2, t.type(), rnd.nextBoolean() ? size : -1);
                }
                case 1 -> {
                    expectedClass = MPI.ERR_COUNT;
                    comm.allReduce(a.passed(), b.passed(), -1, t.type(), MPI.SUM);
                }
                case 2 -> {
                    expectedClass = MPI.ERR_TYPE;
                    Datatype uncommitted = Datatype.createContiguous(2, MPI.INT);
                    comm.allGather(a.passed(), 1, uncommitted, b.passed(), 1, uncommitted);
                }
                case 3 -> {
                    expectedClass = MPI.ERR_BUFFER;
                    comm.allGather(a.passed(), 2, t.type(), null, 2, t.type());
                }
                case 4 -> {
                    expectedClass = MPI.ERR_BUFFER;
                    comm.bcast(new double[64], 2, MPI.INT, 0); // storage other than the type's
                }
                case 5 -> {
                    expected = IndexOutOfBoundsException.class; // §4.3 R9: up front
                    int[] small = new int[2];
                    comm.allGather(small, 3, MPI.INT, new int[3 * size], 3, MPI.INT);
                }
                case 6 -> {
                    // (heap buffers in i-forms are railcoll-mpi's documented extension of §4.3 R8, docs/mpi.md)
                    expectedClass = MPI.ERR_ROOT;
                    comm.iBcast(java.nio.IntBuffer.wrap(new int[8]), 2, MPI.INT, size).waitFor();
                }
                case 7 -> {
                    expectedClass = MPI.ERR_OP; // MINLOC is for the pair types only
                    if (rnd.nextBoolean()) {
                        comm.allReduce(a.passed(), b.passed(), 2, t.type(), MPI.MINLOC);
                    } else {
                        // A predefined op on a struct of several primitives: no single predefined type is under it
                        // (MPI 3.1 §5.9.2), so only user ops reduce it (decision 0224).
                        RandomTypes.Model mixed;
                        do { // (a struct of one primitive is a type over it, which predefined ops do reduce)
                            mixed = RandomTypes.mixed(rnd);
                        } while (java.util.Arrays.stream(mixed.signature().split(" ")).distinct().count() < 2);
                        Op[] ops = {MPI.SUM, MPI.MAX, MPI.BAND, MPI.LOR, MPI.PROD};
                        Op op = ops[rnd.nextInt(ops.length)];
                        RandomCall.Arg x = c.arg(mixed, filled(size, 2), false);
                        RandomCall.Arg y = c.arg(mixed, filled(size, 2), false);
                        RandomCoverage.count("error: predefined op on a struct of several primitives");
                        comm.allReduce(x.passed(), y.passed(), 2, mixed.type(), op);
                    }
                }
                case 9 -> {
                    expectedClass = MPI.ERR_TRUNCATE; // 2 elements sent to each, room for 1
                    comm.allToAll(new int[2 * size], 2, MPI.INT, b.passed() instanceof int[] ? new int[size]
                            : MPI.newIntBuffer(size), 1, MPI.INT);
                }
                case 11, 12 -> {
                    // Data before the origin (a negative stride or displacement): a buffer is seen from its first
                    // byte (an array from element 0, a slice or a buffer from its start), so it cannot be reached,
                    // whatever lies before a slice in its array: IndexOutOfBoundsException up front (§4.3 R9).
                    expected = IndexOutOfBoundsException.class;
                    Datatype back = kind == 11 ? Datatype.createVector(2, 1, -1, MPI.INT)
                            : Datatype.createHIndexed(new int[] {1, 1}, new int[] {0, -8}, MPI.INT);
                    back.commit();
                    RandomCall.Arg x = c.arg(RandomTypes.predefined(RandomTypes.Prim.INT), filled(size, 4), false);
                    RandomCall.Arg y = c.arg(RandomTypes.predefined(RandomTypes.Prim.INT), filled(size, 4L * size), false);
                    try {
                        comm.allGather(x.passed(), 1, back, y.passed(), 1, back);
                    } finally {
                        back.free();
                    }
                }
                case 13 -> {
                    expectedClass = MPI.ERR_TRUNCATE; // a message of 2 to itself, room for 1
                    java.nio.IntBuffer two = MPI.newIntBuffer(2);
                    Request sent = comm.iSend(two, 2, MPI.INT, rank, 77);
                    try {
                        comm.recv(new int[1], 1, MPI.INT, rank, 77);
                    } finally {
                        sent.waitFor(); // the truncated receive took the message: the send finishes
                    }
                }
                case 14 -> {
                    expectedClass = MPI.ERR_RANK;
                    comm.send(a.passed(), 2, t.type(), rnd.nextBoolean() ? size : -7, 0);
                }
                case 15 -> {
                    expectedClass = MPI.ERR_TAG;
                    comm.recv(a.passed(), 2, t.type(), rank, -5);
                }
                case 10 -> {
                    expectedClass = MPI.ERR_OP;
                    Op freed = new Op(new UserFunction() {
                        @Override
                        public void call(Object in, Object inOut, int count, Datatype type) {
                        }
                    }, true);
                    comm.allReduce(new int[1], new int[1], 1, MPI.INT, freed); // used, then freed
                    freed.free();
                    comm.allReduce(a.passed(), b.passed(), 1, t.type(), freed);
                }
                default -> {
                    expectedClass = MPI.ERR_TYPE;
                    Datatype freed = Datatype.createContiguous(1, MPI.INT);
                    freed.commit();
                    freed.free();
                    comm.reduce(a.passed(), b.passed(), 1, freed, MPI.SUM, 0);
                }
            }
        } catch (Throwable e) {
            got = e;
        }
        String where = "seed " + seed + " step " + step + " " + c.name + " rank " + rank + " type " + t + ": ";
        if (got == null) {
            throw new AssertionError(where + "no exception, expected " + expected.getSimpleName()
                    + (expectedClass >= 0 ? " class " + expectedClass : ""));
        }
        if (!expected.isInstance(got)) {
            throw new AssertionError(where + "expected " + expected.getSimpleName() + " but got " + got, got);
        }
        if (got instanceof MPIException m && expectedClass >= 0 && m.getErrorClass() != expectedClass) {
            throw new AssertionError(where + "error class " + m.getErrorClass() + " expected " + expectedClass + ": "
                    + m.getMessage(), got);
        }
        c.check();
    }

    private static long[] filled(int n, long v) {
        long[] c = new long[n];
        java.util.Arrays.fill(c, v);
        return c;
    }
}
