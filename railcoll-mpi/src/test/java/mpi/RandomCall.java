package mpi;

import java.util.ArrayList;
import java.util.List;

import static mpi.RandomBuffers.Buf;
import static mpi.RandomBuffers.Kind;

/**
 * One call of the random call test on one rank: its name, the buffers it passes, and what every byte of them must
 * hold afterwards. {@link Arg} rebuilds any rank's buffer image, so the reference can read other ranks' inputs.
 */
final class RandomCall {
    final String name;
    final List<Arg> args = new ArrayList<>();
    final long seed;
    final long step;
    final int rank;
    final boolean directOnly;

    RandomCall(String name, long seed, long step, int rank, boolean directOnly) {
        this.name = name;
        this.seed = seed;
        this.step = step;
        this.rank = rank;
        this.directOnly = directOnly;
    }

    /** A buffer role of the call: the type, the number of elements it spans on each rank, and reduction inputs. */
    Arg arg(RandomTypes.Model m, long[] spanCounts, boolean numbers) {
        Arg a = new Arg(args.size(), m, spanCounts, numbers);
        args.add(a);
        return a;
    }

    /** As {@link #arg(RandomTypes.Model, long[], boolean)}, a {@link java.nio.Buffer} on every rank if {@code buffersOnly}. */
    Arg arg(RandomTypes.Model m, long[] spanCounts, boolean numbers, boolean buffersOnly) {
        Arg a = arg(m, spanCounts, numbers);
        a.buffersOnly = buffersOnly;
        return a;
    }

    /**
     * The round of a persistent request: a send buffer ({@link Arg#rounds}) holds new contents in each round after the
     * first, a pure function of (seed, step, round, rank, buffer) as the first.
     */
    int round;

    final class Arg {
        final int role;
        final RandomTypes.Model m;
        final long[] spanCounts;
        final boolean numbers;
        Buf buf;
        int[] expected;
        /** Whether this buffer is a {@link java.nio.Buffer} whatever the call ({@link #directOnly} makes all of them). */
        boolean buffersOnly;
        /** Whether this buffer is a direct one on every rank (bytes of several primitives: allToAllw). */
        boolean directBuffer;
        /** Whether its contents change with {@link #round} (a persistent send's buffer). */
        boolean rounds;

        Arg(int role, RandomTypes.Model m, long[] spanCounts, boolean numbers) {
            this.role = role;
            this.m = m;
            this.spanCounts = spanCounts;
            this.numbers = numbers;
        }

        Kind kind(int r) {
            if (directBuffer) {
                return Kind.DIRECT;
            }
            return RandomBuffers.kind(seed, step, r, role, directOnly || buffersOnly, m.storage());
        }

        RandomBuffers.Layout layout(int r) {
            return RandomBuffers.layout(seed, step, r, role, m.storage(), m.span(spanCounts[r]), kind(r));
        }

        /** Rank r's first contents of this buffer. */
        byte[] image(int r) {
            RandomBuffers.Layout l = layout(r);
            long key = rounds && round > 0 ? RandomBuffers.mix(step, round) : step;
            byte[] image = RandomBuffers.image(seed, key, r, role, l.length(), m.prim());
            if (numbers) {
                RandomBuffers.numbers(image, l.guardBefore(), m, spanCounts[r], seed, key, r, role);
            }
            return image;
        }

        long origin(int r) {
            return layout(r).guardBefore();
        }

        /** This rank's buffer, made once; its expected contents start as its first ones. */
        Object passed() {
            if (buf == null) {
                byte[] image = image(rank);
                buf = RandomBuffers.make(image, layout(rank).guardBefore(), m.storage(), kind(rank));
                expected = RandomReference.expectedOf(image);
            }
            return buf.passed;
        }

            /** A persistent send's next round: this rank's buffer gets the round's contents (as a program refills it). */
        void refill() {
            passed();
            byte[] image = image(rank);
            buf.write(image);
            expected = RandomReference.expectedOf(image);
        }

        /** The buffer an i-form takes (direct or a heap slice). */
        java.nio.Buffer direct() {
            return (java.nio.Buffer) passed();
        }

        /** Packed leaves of rank r's elements [first, first + count). */
        byte[] packed(int r, long first, long count) {
            return RandomReference.pack(image(r), origin(r), m, first, count);
        }

        void expect(long first, long count, byte[] data, int at) {
            passed();
            RandomReference.unpack(expected, buf.origin, m, first, count, data, at);
        }

        /**
         * A complex product's zero parts may have either sign (how the formula is arranged decides): their sign byte is
         * left undefined, every other byte checked.
         */
        void expectAnyZeroSign(long first, long count) {
            if (!m.prim().complex()) {
                return;
            }
            passed();
            int half = m.prim().width / 2;
            for (long e = first; e < first + count; e++) {
                for (long leaf : m.leafOffsets()) {
                    for (int part = 0; part < 2; part++) {
                        int at = Math.toIntExact(buf.origin + e * m.extent() + leaf + (long) part * half);
                        boolean zero = true;
                        for (int j = 0; j < half - 1; j++) {
                            zero &= expected[at + j] == 0;
                        }
                        int top = at + half - 1; // little-endian: the sign is the last byte's top bit
                        if (zero && (expected[top] == 0 || expected[top] == 0x80)) {
                            expected[top] = RandomReference.UNDEFINED;
                        }
                    }
                }
            }
        }

        void expectUndefined(long first, long count) {
            passed();
            RandomReference.undefined(expected, buf.origin, m, first, count);
        }
    }

    /** Every byte of every buffer against the reference; the failure names everything needed to replay it. */
    void check() {
        for (Arg a : args) {
            if (a.buf == null) {
                continue;
            }
            byte[] now = a.buf.now();
            for (int i = 0; i < now.length; i++) {
                int want = a.expected[i];
                if (want != RandomReference.UNDEFINED && want != (now[i] & 0xFF)) {
                    throw new AssertionError("seed " + seed + " step " + step + " call " + name + " rank " + rank
                            + " buffer " + a.role + " (" + a.buf.describe + ", origin at byte " + a.buf.origin
                            + ", counts " + java.util.Arrays.toString(a.spanCounts) + ") datatype " + a.m + " extent "
                            + a.m.extent() + ": byte " + i + " (offset " + (i - a.buf.origin) + " from the origin)"
                            + " expected " + want + " actual " + (now[i] & 0xFF));
                }
            }
        }
    }
}
