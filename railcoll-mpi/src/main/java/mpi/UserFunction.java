package mpi;

import java.nio.ByteBuffer;

/**
 * The body of a user {@link Op}: override one of the two {@code call} methods. Each computes
 * {@code inOut[i] = in[i] op inOut[i]} over {@code count} elements of {@code datatype}, where {@code in} holds the
 * lower ranks' contribution. The {@code ByteBuffer} form gets direct, native-order buffers of
 * {@code count * extent} bytes, valid only during the call; its default copies them into arrays of the datatype's
 * base type ({@code byte[]} for pair and struct types, {@code float[]}/{@code double[]} for the complex types),
 * calls the {@code Object} form and writes {@code inOutVec} back. {@code BOOLEAN} data reaches the {@code Object}
 * form directly as {@code boolean[]}. Called on the thread that runs the reduction; may be called several times per
 * reduction on parts of the vector.
 */
public abstract class UserFunction {

    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("Not supported yet.");
    }

    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        // count * extent base units, or more where the type's data runs past that (Op.invoke, decision 0216)
        int n = Math.max(count * datatype.getExtent(), in.capacity() / datatype.baseType.bytes);
        Object a = datatype.baseType.newArray(n);
        Object b = datatype.baseType.newArray(n);
        if (a == null) {
            throw new IllegalArgumentException("Unsupported datatype.");
        }
        datatype.baseType.read(in, a, n);
        datatype.baseType.read(inOut, b, n);
        call(a, b, count, datatype);
        inOut.clear();
        datatype.baseType.write(b, inOut, n);
    }
}
