package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.schedule.Collective;
import io.railcoll.systemtest.RandomReduction.Case;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The random reductions: all-reduce, reduce, reduce-scatter (equal blocks and per-rank counts), scan and exscan, on
 * a random (type, operator) of {@link RandomReduction}, in place or not, checked against its sequential reference.
 */
final class RandomReductionCalls {
    private RandomReductionCalls() {
    }

    /** The shared parameters of every reduction: the case, the element count, and whether ranks go in place. */
    abstract static class Reduction extends RandomCall {
        final Case c;
        final long count;
        final boolean inPlace;

        Reduction(SplittableRandom shared, int n, long perRankFactor) {
            c = RandomReduction.pick(shared);
            int size = c.type().sizeBytes();
            count = bytes(shared, 1, (1L << 20) / perRankFactor) / size;
            inPlace = shared.nextInt(3) == 0;
        }

        /** Whether this rank's array family passes the type's own array (int[], ...) rather than a byte[]. */
        boolean typed;

        @Override
        boolean wideHeapSegments() {
            return true;
        }

        /** Draws this rank's overload family and, for arrays, byte[] or the type's own array where the API has one. */
        final void chooseForm(Ctx x) {
            f = RandomDataCalls.family(x.local());
            typed = f == RandomBuffer.Family.ARRAY && RandomBuffer.hasTypedArrays(type()) && x.local().nextBoolean();
        }

        /**
         * Extra elements for a recv of the array overloads, now and then: they take the count from send (or the
         * counts), recv need only be at least as long, and its tail is left as it was.
         */
        final long slack(Ctx x) {
            return f == RandomBuffer.Family.ARRAY && x.local().nextInt(4) == 0 ? 1 + x.local().nextInt(3) : 0;
        }

        @Override
        final ElementType typedArrays() {
            return typed ? type() : null;
        }

        /**
         * The pair types' padding bytes of a result hold some rank's padding, which one unspecified (ElementType; the
         * collectives move whole elements; decision 0214, bug 3): recv's padding is not compared.
         */
        @Override
        void beforeCheck() {
            if (c.type().sizeBytes() != 16 || recv == null) {
                return;
            }
            MemorySegment e = expected(recv);
            for (long at = 12; at < recv.body.byteSize(); at += 16) {
                e.asSlice(at, 4).copyFrom(recv.body.asSlice(at, 4));
            }
        }

        ElementType type() {
            return c.type();
        }

        Operator op() {
            return c.op();
        }

        long bytes(long elements) {
            return elements * c.type().sizeBytes();
        }

        @Override
        long selectionBytes() {
            return bytes(count);
        }

        String what() {
            return c + ", " + count + " elements" + (inPlace ? ", in place" : "");
        }

        /** A send buffer with this rank's elements [0, elements). */
        RandomBuffer contribution(long elements) {
            RandomBuffer b = buffer(inPlace ? "buffer" : "send", f, bytes(elements));
            RandomReduction.fill(c, ctx.salt(), ctx.me(), 0, elements, b.body);
            snapshot(b);
            return b;
        }

        /** Sets {@code b}'s expected bytes from {@code at}: elements [from, from+elements) folded over ranks 0..ranks-1. */
        void expect(RandomBuffer b, long at, int ranks, long from, long elements) {
            RandomReduction.expect(c, ctx.salt(), ranks, from, elements, expected(b).asSlice(at, bytes(elements)));
        }

    }

    static final class Allreduce extends Reduction {
        Allreduce(SplittableRandom shared, int n) {
            super(shared, n, 1);
        }

        /** The blocking all-reduce's segment form refuses them (decision 0090); only the i-form stages them. */
        @Override
        boolean wideHeapSegments() {
            return false;
        }

        @Override
        Collective collective() {
            return Collective.ALLREDUCE;
        }

        @Override
        String describe() {
            return "allreduce, " + what();
        }

        @Override
        void prepare(Ctx x) {
            chooseForm(x);
            send = contribution(count);
            recv = inPlace ? send : buffer("recv", f, bytes(count + slack(x)));
            snapshot(recv);
            expect(recv, 0, x.n(), 0, count);
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> inPlace ? comm.iallreduce(seg(send), type(), count, op())
                        : comm.iallreduce(seg(send), seg(recv), type(), count, op());
                case ARRAY -> typed ? TypedArrayCalls.iallreduce(comm, send, recv, op())
                        : comm.iallreduce(arr(send), arr(recv), type(), op());
                case BUFFER -> inPlace ? comm.iallreduce(buf(send), type(), op())
                        : comm.iallreduce(buf(send), buf(recv), type(), op());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> {
                    if (inPlace) {
                        comm.allreduce(seg(send), type(), count, op());
                    } else {
                        comm.allreduce(seg(send), seg(recv), type(), count, op());
                    }
                }
                case ARRAY -> {
                    if (typed) {
                        TypedArrayCalls.allreduce(comm, send, recv, op());
                    } else {
                        comm.allreduce(arr(send), arr(recv), type(), op());
                    }
                }
                case BUFFER -> {
                    if (inPlace) {
                        comm.allreduce(buf(send), type(), op());
                    } else {
                        comm.allreduce(buf(send), buf(recv), type(), op());
                    }
                }
            }
        }
    }

    /** Reduce: a non-root's recv, when given, is never touched; in place on the root only. */
    static final class Reduce extends Reduction {
        Reduce(SplittableRandom shared, int n) {
            super(shared, n, 1);
            drawRoot(shared, n);
        }

        @Override
        Collective collective() {
            return Collective.REDUCE;
        }

        @Override
        String describe() {
            return "reduce to root " + root() + ", " + what();
        }

        @Override
        void prepare(Ctx x) {
            chooseForm(x);
            send = contribution(count);
            if (x.me() == root()) {
                recv = inPlace ? send : buffer("recv", f, bytes(count + slack(x)));
                snapshot(recv);
                expect(recv, 0, x.n(), 0, count);
            } else if (!inPlace && x.local().nextBoolean()) {
                recv = buffer("recv", f, bytes(count));
                snapshot(recv);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> inPlace ? comm.ireduce(seg(send), type(), count, op(), root())
                        : comm.ireduce(seg(send), seg(recv), type(), count, op(), root());
                case ARRAY -> typed ? TypedArrayCalls.ireduce(comm, send, recv, op(), root())
                        : comm.ireduce(arr(send), arr(recv), type(), op(), root());
                case BUFFER -> comm.ireduce(buf(send), buf(recv), type(), op(), root());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> {
                    if (inPlace) {
                        comm.reduce(seg(send), type(), count, op(), root());
                    } else {
                        comm.reduce(seg(send), seg(recv), type(), count, op(), root());
                    }
                }
                case ARRAY -> {
                    if (typed) {
                        TypedArrayCalls.reduce(comm, send, recv, op(), root());
                    } else {
                        comm.reduce(arr(send), arr(recv), type(), op(), root());
                    }
                }
                case BUFFER -> comm.reduce(buf(send), buf(recv), type(), op(), root());
            }
        }
    }

    /** Reduce-scatter with equal blocks: {@code count} elements per rank; in place only through segments. */
    static final class ReduceScatterBlock extends Reduction {
        private boolean here;

        ReduceScatterBlock(SplittableRandom shared, int n) {
            super(shared, n, n);
        }

        @Override
        Collective collective() {
            return Collective.REDUCE_SCATTER;
        }

        @Override
        String describe() {
            return "reduceScatterBlock, " + what() + " per rank";
        }

        @Override
        void prepare(Ctx x) {
            chooseForm(x);
            here = inPlace && f == RandomBuffer.Family.SEGMENT;
            send = contribution(count * x.n());
            if (here) {
                recv = send;
                expect(send, 0, x.n(), count * x.me(), count);
                undefined(send, bytes(count), bytes(count) * (x.n() - 1));
            } else {
                recv = buffer("recv", f, bytes(count));
                snapshot(recv);
                expect(recv, 0, x.n(), count * x.me(), count);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> here ? comm.ireduceScatterBlock(seg(send), type(), count, op())
                        : comm.ireduceScatterBlock(seg(send), seg(recv), type(), count, op());
                case ARRAY -> typed ? TypedArrayCalls.ireduceScatterBlock(comm, send, recv, op())
                        : comm.ireduceScatterBlock(arr(send), arr(recv), type(), op());
                case BUFFER -> comm.ireduceScatterBlock(buf(send), buf(recv), type(), op());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> {
                    if (here) {
                        comm.reduceScatterBlock(seg(send), type(), count, op());
                    } else {
                        comm.reduceScatterBlock(seg(send), seg(recv), type(), count, op());
                    }
                }
                case ARRAY -> {
                    if (typed) {
                        TypedArrayCalls.reduceScatterBlock(comm, send, recv, op());
                    } else {
                        comm.reduceScatterBlock(arr(send), arr(recv), type(), op());
                    }
                }
                case BUFFER -> comm.reduceScatterBlock(buf(send), buf(recv), type(), op());
            }
        }
    }

    /** Reduce-scatter with per-rank counts (in elements); a 0-count rank sometimes passes a null recv. */
    static final class ReduceScatter extends Reduction {
        private final long[] elements;
        private final long[] byteCounts;

        ReduceScatter(SplittableRandom shared, int n) {
            super(shared, n, n);
            elements = new long[n];
            byteCounts = new long[n];
            for (int i = 0; i < n; i++) {
                elements[i] = shared.nextInt(4) == 0 ? 0 : shared.nextBoolean() ? shared.nextLong(count + 1)
                        : count;
            }
        }

        @Override
        Collective collective() {
            return Collective.REDUCE_SCATTERV;
        }

        @Override
        long selectionBytes() {
            return bytes(Arrays.stream(elements).max().orElse(0));
        }

        @Override
        String describe() {
            return "reduceScatter of " + Arrays.toString(elements) + " elements, " + c
                    + (inPlace ? ", in place" : "");
        }

        @Override
        void prepare(Ctx x) {
            chooseForm(x);
            long total = Arrays.stream(elements).sum();
            long before = 0;
            for (int i = 0; i < x.me(); i++) {
                before += elements[i];
            }
            long mine = elements[x.me()];
            send = contribution(total);
            if (inPlace) {
                recv = send;
                expect(send, 0, x.n(), before, mine);
                undefined(send, bytes(mine), bytes(total - mine));
            } else if (!(mine == 0 && x.local().nextBoolean())) {
                recv = buffer("recv", f, bytes(mine + slack(x)));
                snapshot(recv);
                expect(recv, 0, x.n(), before, mine);
            }
        }

        @Override
        Request start(Communicator comm) {
            return switch (f) {
                case SEGMENT -> comm.ireduceScatter(seg(send), seg(recv), type(), elements, op());
                case ARRAY -> typed ? TypedArrayCalls.ireduceScatter(comm, send, recv, elements, op())
                        : comm.ireduceScatter(arr(send), arr(recv), type(), elements, op());
                case BUFFER -> comm.ireduceScatter(buf(send), buf(recv), type(), elements, op());
            };
        }

        @Override
        void run(Communicator comm) {
            switch (f) {
                case SEGMENT -> comm.reduceScatter(seg(send), seg(recv), type(), elements, op());
                case ARRAY -> {
                    if (typed) {
                        TypedArrayCalls.reduceScatter(comm, send, recv, elements, op());
                    } else {
                        comm.reduceScatter(arr(send), arr(recv), type(), elements, op());
                    }
                }
                case BUFFER -> comm.reduceScatter(buf(send), buf(recv), type(), elements, op());
            }
        }
    }

    /** Scan (inclusive) or exscan; exscan never writes rank 0's recv. */
    static final class Scan extends Reduction {
        private final boolean exclusive;

        Scan(SplittableRandom shared, int n, boolean exclusive) {
            super(shared, n, 1);
            this.exclusive = exclusive;
        }

        @Override
        Collective collective() {
            return exclusive ? Collective.EXSCAN : Collective.SCAN;
        }

        @Override
        String describe() {
            return (exclusive ? "exscan, " : "scan, ") + what();
        }

        @Override
        void prepare(Ctx x) {
            chooseForm(x);
            send = contribution(count);
            recv = inPlace ? send : buffer("recv", f, bytes(count + slack(x)));
            snapshot(recv);
            int ranks = exclusive ? x.me() : x.me() + 1;
            if (ranks > 0) {
                expect(recv, 0, ranks, 0, count);
            }
        }

        @Override
        Request start(Communicator comm) {
            boolean ex = exclusive;
            return switch (f) {
                case SEGMENT -> ex ? comm.iexscan(seg(send), seg(recv), type(), count, op())
                        : comm.iscan(seg(send), seg(recv), type(), count, op());
                case ARRAY -> typed ? TypedArrayCalls.iscan(comm, ex, send, recv, op())
                        : ex ? comm.iexscan(arr(send), arr(recv), type(), op())
                        : comm.iscan(arr(send), arr(recv), type(), op());
                case BUFFER -> ex ? comm.iexscan(buf(send), buf(recv), type(), op())
                        : comm.iscan(buf(send), buf(recv), type(), op());
            };
        }

        @Override
        void run(Communicator comm) {
            boolean ex = exclusive;
            switch (f) {
                case SEGMENT -> {
                    if (ex) {
                        comm.exscan(seg(send), seg(recv), type(), count, op());
                    } else {
                        comm.scan(seg(send), seg(recv), type(), count, op());
                    }
                }
                case ARRAY -> {
                    if (typed) {
                        TypedArrayCalls.scan(comm, ex, send, recv, op());
                    } else if (ex) {
                        comm.exscan(arr(send), arr(recv), type(), op());
                    } else {
                        comm.scan(arr(send), arr(recv), type(), op());
                    }
                }
                case BUFFER -> {
                    if (ex) {
                        comm.exscan(buf(send), buf(recv), type(), op());
                    } else {
                        comm.scan(buf(send), buf(recv), type(), op());
                    }
                }
            }
        }
    }
}
