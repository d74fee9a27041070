package io.railcoll.bench.report;

/** Short, exact labels for message sizes as tables and plot axes show them: {@code 1B}, {@code 4K}, {@code 1M}. */
public final class Sizes {
    private static final long KIB = 1024;
    private static final long MIB = KIB * KIB;
    private static final long GIB = MIB * KIB;

    private Sizes() {
    }

    /**
     * Binary units, used only when they are exact, so {@code 65537} stays {@code 65537B} rather than
     * turning into a rounded {@code 64K} that hides the odd size a test was after.
     */
    public static String label(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("size must be >= 0, got " + bytes);
        }
        if (bytes >= GIB && bytes % GIB == 0) {
            return bytes / GIB + "G";
        }
        if (bytes >= MIB && bytes % MIB == 0) {
            return bytes / MIB + "M";
        }
        if (bytes >= KIB && bytes % KIB == 0) {
            return bytes / KIB + "K";
        }
        return bytes + "B";
    }
}
