package io.railcoll.sim;

/**
 * Hockney's model for one link class (paper 000 section 3.2): an uncontended message of m bytes takes
 * {@code alphaNs + m * nsPerByte}. {@code cpuFraction} says how much of that is processor time, spent half by the
 * sender before the message leaves and half by the receiver after it lands; the rest is time on the wire, during
 * which the sender's port and the link are busy but no processor is. On loopback emulation nearly everything is
 * processor time (the "wire" is a kernel copy); with an offloading network interface little is. The split changes
 * nothing for one message alone; it decides what contends when many ranks share a node's cores or links.
 * Immutable.
 */
public record LinkCost(double alphaNs, double nsPerByte, double cpuFraction) {
    public LinkCost {
        if (!(alphaNs >= 0) || !(nsPerByte >= 0) || Double.isInfinite(alphaNs) || Double.isInfinite(nsPerByte)) {
            throw new IllegalArgumentException("alpha and time per byte must be finite and >= 0, got " + alphaNs
                    + " ns, " + nsPerByte + " ns/B");
        }
        if (!(cpuFraction >= 0 && cpuFraction <= 1)) {
            throw new IllegalArgumentException("the processor share must be in [0, 1], got " + cpuFraction);
        }
    }

    /** Hockney's time for one uncontended message of {@code bytes}, in ns. */
    public double messageNs(long bytes) {
        return alphaNs + bytes * nsPerByte;
    }
}
