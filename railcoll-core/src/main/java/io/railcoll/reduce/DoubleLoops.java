package io.railcoll.reduce;

/**
 * The combining loops on {@code double} elements: {@code b[i] = a[i] op b[i]} for {@code i < n}, over two heap
 * arrays into which {@link StagedCombiners} staged a chunk of each operand. C2 in JDK 25 vectorises these loops but
 * not the same loop over a segment: its floating-point segment accesses are not vectorised (decision 0045, checked
 * on the generated code). IEEE 754 arithmetic as Java's {@code double}; min and max are
 * {@link Math#min(double, double)} and {@link Math#max(double, double)}: NaN if either operand is NaN, and -0.0 is less than
 * +0.0. Stateless; any thread.
 */
final class DoubleLoops {

    private DoubleLoops() {
    }

    static void sum(double[] a, double[] b, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = a[i] + b[i];
        }
    }

    static void prod(double[] a, double[] b, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = a[i] * b[i];
        }
    }

    static void min(double[] a, double[] b, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = Math.min(a[i], b[i]);
        }
    }

    static void max(double[] a, double[] b, int n) {
        for (int i = 0; i < n; i++) {
            b[i] = Math.max(a[i], b[i]);
        }
    }
}
