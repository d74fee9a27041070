package io.railcoll.schedule;

import java.util.Objects;

/**
 * What an algorithm costs for one {@link Shape}, in the terms of Hockney's model extended to k ports
 * (paper 000, section 3.2): a message costs {@code ts + bytes * tau}, and each rank sends and receives up to k
 * messages at once.
 *
 * <ul>
 *   <li>{@code steps}: communication steps on the critical path, the {@code ts} coefficient.</li>
 *   <li>{@code betaBytes}: bytes on the critical path, the {@code tau} coefficient (for the paper's synchronous
 *       algorithms: the sum over steps of the largest message of that step).</li>
 *   <li>bytes sent and received per link class, each the maximum over ranks: intra-node (both ends on one node,
 *       carried by shared memory) and inter-node (carried by the rails).</li>
 *   <li>{@code formula}: the closed form in Hockney notation, for reports and {@code railcoll info}.</li>
 * </ul>
 *
 * <p>Both the steps and {@code betaBytes} are defined by the program-order port model the
 * {@link ScheduleChecker} measures: a put starts when its rank has received everything its program waited for
 * before it, when the rank's put k positions earlier has finished (k send ports), and when the put matched by the
 * receiver's Recv k positions earlier has finished (k receive ports). Equations (1)-(5) of paper 000 are this
 * model evaluated for N a power of k+1. Immutable.
 */
public record CostTerms(
        int steps,
        long betaBytes,
        long intraNodeSentBytes,
        long intraNodeReceivedBytes,
        long interNodeSentBytes,
        long interNodeReceivedBytes,
        String formula) {

    public CostTerms {
        if (steps < 0 || betaBytes < 0 || intraNodeSentBytes < 0 || intraNodeReceivedBytes < 0
                || interNodeSentBytes < 0 || interNodeReceivedBytes < 0) {
            throw new IllegalArgumentException("cost terms must be >= 0: steps=" + steps + ", beta=" + betaBytes);
        }
        Objects.requireNonNull(formula, "formula");
    }

    /** Hockney's time estimate {@code steps*ts + betaBytes*tau}, in the unit of the arguments. */
    public double hockneyTime(double startupTime, double timePerByte) {
        return steps * startupTime + betaBytes * timePerByte;
    }

    /** True when every number (not the formula text) equals {@code other}'s. */
    public boolean sameNumbers(CostTerms other) {
        return steps == other.steps && betaBytes == other.betaBytes
                && intraNodeSentBytes == other.intraNodeSentBytes
                && intraNodeReceivedBytes == other.intraNodeReceivedBytes
                && interNodeSentBytes == other.interNodeSentBytes
                && interNodeReceivedBytes == other.interNodeReceivedBytes;
    }

    /** The numbers only, e.g. {@code steps=3 beta=7b intra=0/0 inter=448/448}. */
    public String numbers() {
        return "steps=" + steps + " beta=" + betaBytes + "B intra(sent/recv)=" + intraNodeSentBytes + "/"
                + intraNodeReceivedBytes + "B inter(sent/recv)=" + interNodeSentBytes + "/" + interNodeReceivedBytes + "B";
    }

    @Override
    public String toString() {
        return numbers() + " [" + formula + "]";
    }
}
