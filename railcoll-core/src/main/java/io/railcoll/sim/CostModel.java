package io.railcoll.sim;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the simulator charges: Hockney parameters per link class plus the resources ranks share.
 *
 * @param links                {@link LinkCost} per class; shared memory and rail are required, multicast optional
 * @param copyNsPerByte        processor time of a local copy (a Copy op), per byte
 * @param reduceNsPerByte      gamma: processor time a Reduce op spends per byte on top of a copy's
 *                             ({@link #DEFAULT_REDUCE_NS_PER_BYTE} unless a tuning file sets
 *                             {@code model.reduce.ns-per-byte})
 * @param stripeThresholdBytes a rail message longer than this is split evenly over the node's rails, as the engine
 *                             does ({@code RAILCOLL_STRIPE_THRESHOLD})
 * @param shmStreamsPerNode    shared-memory transfers a node's memory carries at once at full speed; more wait
 *                             (0: no limit)
 * @param cpuCores             processor cores shared as {@code cpuScope} says (0: every rank has a core of its own,
 *                             so processor time only delays the rank that spends it); may be fractional
 * @param cpuScope             whether every node has {@code cpuCores} or the whole job shares them
 * @param railLimit            the token bucket on every rail in each direction, or null for rails that carry any
 *                             traffic at their Hockney time per byte
 */
public record CostModel(Map<LinkClass, LinkCost> links, double copyNsPerByte, long stripeThresholdBytes,
                        int shmStreamsPerNode, double cpuCores, CpuScope cpuScope, RailLimit railLimit,
                        double reduceNsPerByte) {

    public CostModel {
        EnumMap<LinkClass, LinkCost> copy = new EnumMap<>(LinkClass.class);
        copy.putAll(links);
        for (LinkClass required : new LinkClass[] {LinkClass.SHARED_MEMORY, LinkClass.RAIL}) {
            if (!copy.containsKey(required)) {
                throw new IllegalArgumentException("the cost model needs the " + required.key() + " link class");
            }
        }
        links = Collections.unmodifiableMap(copy);
        if (!(copyNsPerByte >= 0) || Double.isInfinite(copyNsPerByte)) {
            throw new IllegalArgumentException("copy time per byte must be finite and >= 0, got " + copyNsPerByte);
        }
        if (!(reduceNsPerByte >= 0) || Double.isInfinite(reduceNsPerByte)) {
            throw new IllegalArgumentException("reduce time per byte must be finite and >= 0, got " + reduceNsPerByte);
        }
        if (stripeThresholdBytes < 0) {
            throw new IllegalArgumentException("stripe threshold must be >= 0, got " + stripeThresholdBytes);
        }
        if (shmStreamsPerNode < 0) {
            throw new IllegalArgumentException("shared-memory streams per node must be >= 0, got " + shmStreamsPerNode);
        }
        if (!(cpuCores >= 0) || Double.isInfinite(cpuCores)) {
            throw new IllegalArgumentException("cores must be finite and >= 0, got " + cpuCores);
        }
    }

    /**
     * Gamma when nothing is fitted: what combining costs per byte beyond a copy of the same bytes. On this project's
     * host (loaded) an int sum took 0.17 ns/byte more than a copy in cache and 0.3 ns/byte more in memory
     * (docs/results/local-reduce.md); 0.2 is between, on the cache side, where most reduction steps run.
     */
    public static final double DEFAULT_REDUCE_NS_PER_BYTE = 0.2;

    /** A model whose Reduce ops cost {@link #DEFAULT_REDUCE_NS_PER_BYTE} per byte on top of a copy. */
    public CostModel(Map<LinkClass, LinkCost> links, double copyNsPerByte, long stripeThresholdBytes,
                     int shmStreamsPerNode, double cpuCores, CpuScope cpuScope, RailLimit railLimit) {
        this(links, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope, railLimit,
                DEFAULT_REDUCE_NS_PER_BYTE);
    }

    /** This model with gamma set. */
    public CostModel withReduceNsPerByte(double nsPerByte) {
        return new CostModel(links, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope,
                railLimit, nsPerByte);
    }

    /** A model whose rails have no token bucket. */
    public CostModel(Map<LinkClass, LinkCost> links, double copyNsPerByte, long stripeThresholdBytes,
                     int shmStreamsPerNode, double cpuCores, CpuScope cpuScope) {
        this(links, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope, null);
    }

    /** A model of two link classes with no shared-resource limits: plain k-port Hockney per class. */
    public static CostModel hockney(LinkCost sharedMemory, LinkCost rail) {
        return new CostModel(Map.of(LinkClass.SHARED_MEMORY, sharedMemory, LinkClass.RAIL, rail), 0,
                Long.MAX_VALUE, 0, 0, CpuScope.NODE);
    }

    public LinkCost link(LinkClass linkClass) {
        LinkCost c = links.get(linkClass);
        if (c == null) {
            throw new IllegalArgumentException("the cost model has no " + linkClass.key() + " parameters");
        }
        return c;
    }

    public Optional<RailLimit> rails() {
        return Optional.ofNullable(railLimit);
    }

    public Optional<LinkCost> multicast() {
        return Optional.ofNullable(links.get(LinkClass.MULTICAST));
    }

    public CostModel withLink(LinkClass linkClass, LinkCost cost) {
        EnumMap<LinkClass, LinkCost> m = new EnumMap<>(LinkClass.class);
        m.putAll(links);
        m.put(linkClass, cost);
        return new CostModel(m, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope, railLimit,
                reduceNsPerByte);
    }

    public CostModel withCpu(double cores, CpuScope scope) {
        return new CostModel(links, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cores, scope, railLimit,
                reduceNsPerByte);
    }

    public CostModel withCopyNsPerByte(double nsPerByte) {
        return new CostModel(links, nsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope, railLimit,
                reduceNsPerByte);
    }

    public CostModel withShmStreamsPerNode(int streams) {
        return new CostModel(links, copyNsPerByte, stripeThresholdBytes, streams, cpuCores, cpuScope, railLimit,
                reduceNsPerByte);
    }

    /** This model with {@code limit} on every rail (null: none). */
    public CostModel withRailLimit(RailLimit limit) {
        return new CostModel(links, copyNsPerByte, stripeThresholdBytes, shmStreamsPerNode, cpuCores, cpuScope, limit,
                reduceNsPerByte);
    }
}
