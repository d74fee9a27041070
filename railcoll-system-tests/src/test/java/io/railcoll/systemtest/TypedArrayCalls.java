package io.railcoll.systemtest;

import io.railcoll.Communicator;
import io.railcoll.Request;
import io.railcoll.reduce.Operator;

/**
 * The reductions' typed-array overloads (int[], long[], float[], double[]) called on {@link RandomBuffer}s of kind
 * {@link RandomBuffer.Kind#TYPED_ARRAY}: one method per API call, choosing the overload by the array's type (a
 * null buffer passes null, as the byte[] forms do).
 */
final class TypedArrayCalls {
    private TypedArrayCalls() {
    }

    private static Object a(RandomBuffer b) {
        return b == null ? null : b.typedArray();
    }

    static void allreduce(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op) {
        switch (a(send)) {
            case int[] s -> c.allreduce(s, (int[]) a(recv), op);
            case long[] s -> c.allreduce(s, (long[]) a(recv), op);
            case float[] s -> c.allreduce(s, (float[]) a(recv), op);
            case double[] s -> c.allreduce(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        }
    }

    static Request iallreduce(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op) {
        return switch (a(send)) {
            case int[] s -> c.iallreduce(s, (int[]) a(recv), op);
            case long[] s -> c.iallreduce(s, (long[]) a(recv), op);
            case float[] s -> c.iallreduce(s, (float[]) a(recv), op);
            case double[] s -> c.iallreduce(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        };
    }

    static void reduce(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op, int root) {
        switch (a(send)) {
            case int[] s -> c.reduce(s, (int[]) a(recv), op, root);
            case long[] s -> c.reduce(s, (long[]) a(recv), op, root);
            case float[] s -> c.reduce(s, (float[]) a(recv), op, root);
            case double[] s -> c.reduce(s, (double[]) a(recv), op, root);
            default -> throw new IllegalStateException();
        }
    }

    static Request ireduce(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op, int root) {
        return switch (a(send)) {
            case int[] s -> c.ireduce(s, (int[]) a(recv), op, root);
            case long[] s -> c.ireduce(s, (long[]) a(recv), op, root);
            case float[] s -> c.ireduce(s, (float[]) a(recv), op, root);
            case double[] s -> c.ireduce(s, (double[]) a(recv), op, root);
            default -> throw new IllegalStateException();
        };
    }

    static void reduceScatterBlock(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op) {
        switch (a(send)) {
            case int[] s -> c.reduceScatterBlock(s, (int[]) a(recv), op);
            case long[] s -> c.reduceScatterBlock(s, (long[]) a(recv), op);
            case float[] s -> c.reduceScatterBlock(s, (float[]) a(recv), op);
            case double[] s -> c.reduceScatterBlock(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        }
    }

    static Request ireduceScatterBlock(Communicator c, RandomBuffer send, RandomBuffer recv, Operator op) {
        return switch (a(send)) {
            case int[] s -> c.ireduceScatterBlock(s, (int[]) a(recv), op);
            case long[] s -> c.ireduceScatterBlock(s, (long[]) a(recv), op);
            case float[] s -> c.ireduceScatterBlock(s, (float[]) a(recv), op);
            case double[] s -> c.ireduceScatterBlock(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        };
    }

    static void reduceScatter(Communicator c, RandomBuffer send, RandomBuffer recv, long[] counts, Operator op) {
        switch (a(send)) {
            case int[] s -> c.reduceScatter(s, (int[]) a(recv), counts, op);
            case long[] s -> c.reduceScatter(s, (long[]) a(recv), counts, op);
            case float[] s -> c.reduceScatter(s, (float[]) a(recv), counts, op);
            case double[] s -> c.reduceScatter(s, (double[]) a(recv), counts, op);
            default -> throw new IllegalStateException();
        }
    }

    static Request ireduceScatter(Communicator c, RandomBuffer send, RandomBuffer recv, long[] counts, Operator op) {
        return switch (a(send)) {
            case int[] s -> c.ireduceScatter(s, (int[]) a(recv), counts, op);
            case long[] s -> c.ireduceScatter(s, (long[]) a(recv), counts, op);
            case float[] s -> c.ireduceScatter(s, (float[]) a(recv), counts, op);
            case double[] s -> c.ireduceScatter(s, (double[]) a(recv), counts, op);
            default -> throw new IllegalStateException();
        };
    }

    /** Scan, or exscan where {@code exclusive}. */
    static void scan(Communicator c, boolean exclusive, RandomBuffer send, RandomBuffer recv, Operator op) {
        switch (a(send)) {
            case int[] s when exclusive -> c.exscan(s, (int[]) a(recv), op);
            case int[] s -> c.scan(s, (int[]) a(recv), op);
            case long[] s when exclusive -> c.exscan(s, (long[]) a(recv), op);
            case long[] s -> c.scan(s, (long[]) a(recv), op);
            case float[] s when exclusive -> c.exscan(s, (float[]) a(recv), op);
            case float[] s -> c.scan(s, (float[]) a(recv), op);
            case double[] s when exclusive -> c.exscan(s, (double[]) a(recv), op);
            case double[] s -> c.scan(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        }
    }

    /** Iscan, or iexscan where {@code exclusive}. */
    static Request iscan(Communicator c, boolean exclusive, RandomBuffer send, RandomBuffer recv, Operator op) {
        return switch (a(send)) {
            case int[] s when exclusive -> c.iexscan(s, (int[]) a(recv), op);
            case int[] s -> c.iscan(s, (int[]) a(recv), op);
            case long[] s when exclusive -> c.iexscan(s, (long[]) a(recv), op);
            case long[] s -> c.iscan(s, (long[]) a(recv), op);
            case float[] s when exclusive -> c.iexscan(s, (float[]) a(recv), op);
            case float[] s -> c.iscan(s, (float[]) a(recv), op);
            case double[] s when exclusive -> c.iexscan(s, (double[]) a(recv), op);
            case double[] s -> c.iscan(s, (double[]) a(recv), op);
            default -> throw new IllegalStateException();
        };
    }
}
