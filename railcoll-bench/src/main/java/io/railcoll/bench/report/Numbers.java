package io.railcoll.bench.report;

import java.util.Locale;

/** How latencies and ratios are printed in tables and reports: about three significant digits, locale-free. */
final class Numbers {
    private Numbers() {
    }

    /** {@code 0.612}, {@code 6.22}, {@code 62.2}, {@code 622}, {@code 6220}: enough digits to compare, no noise. */
    static String latencyUs(double us) {
        if (us < 1) {
            return String.format(Locale.ROOT, "%.3f", us);
        }
        if (us < 10) {
            return String.format(Locale.ROOT, "%.2f", us);
        }
        if (us < 100) {
            return String.format(Locale.ROOT, "%.1f", us);
        }
        return String.format(Locale.ROOT, "%.0f", us);
    }

    /** {@code 1.35x}. */
    static String factor(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
