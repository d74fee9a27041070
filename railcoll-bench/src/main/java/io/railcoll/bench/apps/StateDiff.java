package io.railcoll.bench.apps;

import java.util.Locale;

/** Compares two N-body global states ({@code [3n positions][3n velocities]}) bit for bit and says where they differ. */
final class StateDiff {
    private static final String[] AXES = {"x", "y", "z"};

    private StateDiff() {
    }

    /** Null when identical; otherwise the first differing value and how many differ. */
    static String describe(double[] expected, double[] actual) {
        if (expected.length != actual.length) {
            return "lengths differ: " + expected.length + " vs " + actual.length;
        }
        int n = expected.length / 6;
        int first = -1;
        int differing = 0;
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
                differing++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        if (first < 0) {
            return null;
        }
        boolean velocity = first >= 3 * n;
        int k = velocity ? first - 3 * n : first;
        return String.format(Locale.ROOT, "body %d %s %s is %s, expected %s (%d of %d values differ)", k / 3,
                velocity ? "velocity" : "position", AXES[k % 3], actual[first], expected[first], differing, expected.length);
    }
}
