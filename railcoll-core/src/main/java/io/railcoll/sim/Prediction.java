package io.railcoll.sim;

/**
 * A simulated collective: the time until the last rank finishes, and how it was obtained.
 *
 * @param timeNs          predicted time of the collective, in ns
 * @param simulatedRanks  ranks whose programs were run (all of them, or one node's for a node-symmetric schedule)
 * @param size            ranks of the shape
 * @param messages        messages simulated
 */
public record Prediction(double timeNs, int simulatedRanks, int size, long messages) {

    /** {@code all 16 ranks} or {@code node-symmetric: 64 of 65536 ranks}. */
    public String method() {
        return simulatedRanks == size ? "all " + size + " ranks"
                : "node-symmetric: " + simulatedRanks + " of " + size + " ranks";
    }
}
