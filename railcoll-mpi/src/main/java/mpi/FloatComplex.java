package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number stored as (real, imaginary) floats: element {@code i} of a {@code float[]}, a
 * {@code FloatBuffer} or a {@code ByteBuffer} (in that buffer's byte order) is floats {@code 2i} and {@code 2i + 1}.
 * Use with {@code MPI.FLOAT_COMPLEX}, a count of complex numbers and 2 floats each.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int at;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.at = 2 * index;
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return get(FloatBuffer.wrap(array), index);
    }

    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return get(buffer.asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(at);
    }

    public float getImag() {
        return buffer.get(at + 1);
    }

    public void putReal(float real) {
        buffer.put(at, real);
    }

    public void putImag(float imag) {
        buffer.put(at + 1, imag);
    }

    /** The buffer this number lives in. */
    public FloatBuffer getBuffer() {
        return buffer;
    }
}
