package mpi;

import io.railcoll.reduce.UserOperator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The predefined MPI reductions railcoll has no operator for, as railcoll {@link UserOperator}s with fixed ids (the
 * same on every rank): unsigned 8-bit MIN and MAX (the bindings bind {@code MPI.BYTE} and {@code MPI.BOOLEAN} to
 * {@code MPI_UINT8_T}, while railcoll's BYTE is signed), MINLOC and MAXLOC on {@code MPI.SHORT_INT}
 * ({short @0, int @4}, 8 bytes), and PROD on the complex types. Each computes {@code inout[i] = in[i] op inout[i]}.
 */
final class ExtraOperators {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    static final UserOperator UINT8_MIN = new UserOperator("mpi.uint8.min", true, (in, io, inout, oo, n) -> {
        for (long i = 0; i < n; i++) {
            int a = in.get(ValueLayout.JAVA_BYTE, io + i) & 0xff;
            int b = inout.get(ValueLayout.JAVA_BYTE, oo + i) & 0xff;
            inout.set(ValueLayout.JAVA_BYTE, oo + i, (byte) Math.min(a, b));
        }
    });

    static final UserOperator UINT8_MAX = new UserOperator("mpi.uint8.max", true, (in, io, inout, oo, n) -> {
        for (long i = 0; i < n; i++) {
            int a = in.get(ValueLayout.JAVA_BYTE, io + i) & 0xff;
            int b = inout.get(ValueLayout.JAVA_BYTE, oo + i) & 0xff;
            inout.set(ValueLayout.JAVA_BYTE, oo + i, (byte) Math.max(a, b));
        }
    });

    static final UserOperator SHORT_INT_MINLOC = new UserOperator("mpi.short_int.minloc", true,
            (in, io, inout, oo, n) -> shortIntLoc(in, io, inout, oo, n, false));

    static final UserOperator SHORT_INT_MAXLOC = new UserOperator("mpi.short_int.maxloc", true,
            (in, io, inout, oo, n) -> shortIntLoc(in, io, inout, oo, n, true));

    static final UserOperator FLOAT_COMPLEX_PROD = new UserOperator("mpi.float_complex.prod", true,
            (in, io, inout, oo, n) -> {
                for (long i = 0; i < n; i++) {
                    long x = io + 8 * i;
                    long y = oo + 8 * i;
                    float a = in.get(FLOAT, x);
                    float b = in.get(FLOAT, x + 4);
                    float c = inout.get(FLOAT, y);
                    float d = inout.get(FLOAT, y + 4);
                    inout.set(FLOAT, y, a * c - b * d);
                    inout.set(FLOAT, y + 4, a * d + b * c);
                }
            });

    static final UserOperator DOUBLE_COMPLEX_PROD = new UserOperator("mpi.double_complex.prod", true,
            (in, io, inout, oo, n) -> {
                for (long i = 0; i < n; i++) {
                    long x = io + 16 * i;
                    long y = oo + 16 * i;
                    double a = in.get(DOUBLE, x);
                    double b = in.get(DOUBLE, x + 8);
                    double c = inout.get(DOUBLE, y);
                    double d = inout.get(DOUBLE, y + 8);
                    inout.set(DOUBLE, y, a * c - b * d);
                    inout.set(DOUBLE, y + 8, a * d + b * c);
                }
            });

    private ExtraOperators() {
    }

    /** The lesser (greater) value and its index; on equal values the lower index, as MPI. */
    private static void shortIntLoc(MemorySegment in, long io, MemorySegment inout, long oo, long n, boolean max) {
        for (long i = 0; i < n; i++) {
            long x = io + 8 * i;
            long y = oo + 8 * i;
            short a = in.get(SHORT, x);
            short b = inout.get(SHORT, y);
            int ia = in.get(INT, x + 4);
            int ib = inout.get(INT, y + 4);
            if (max ? a > b : a < b) {
                inout.set(SHORT, y, a);
                inout.set(INT, y + 4, ia);
            } else if (a == b && ia < ib) {
                inout.set(INT, y + 4, ia);
            }
        }
    }
}
