package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one complex number stored as (real, imaginary) doubles: element {@code i} of a {@code double[]}, a
 * {@code DoubleBuffer} or a {@code ByteBuffer} (in that buffer's byte order) is doubles {@code 2i} and {@code 2i + 1}.
 * Use with {@code MPI.DOUBLE_COMPLEX}, a count of complex numbers and 2 doubles each.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int at;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return get(DoubleBuffer.wrap(array), index);
    }

    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return get(buffer.asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(at);
    }

    public double getImag() {
        return buffer.get(at + 1);
    }

    public void putReal(double real) {
        buffer.put(at, real);
    }

    public void putImag(double imag) {
        buffer.put(at + 1, imag);
    }

    /** The buffer this number lives in. */
    public DoubleBuffer getBuffer() {
        return buffer;
    }
}
