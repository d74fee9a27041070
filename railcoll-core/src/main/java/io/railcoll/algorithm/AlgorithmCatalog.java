package io.railcoll.algorithm;

import io.railcoll.algorithm.allgather.BruckAllgather;
import io.railcoll.algorithm.allgather.DirectAllgather;
import io.railcoll.algorithm.allgather.GatherBasedMultiConnectionAllgather;
import io.railcoll.algorithm.allgather.GatherBroadcastAllgather;
import io.railcoll.algorithm.allgather.MultiConnectionAllgather;
import io.railcoll.algorithm.allgather.RingAllgather;
import io.railcoll.algorithm.allgather.SmpBruckAllgather;
import io.railcoll.algorithm.allgather.SmpDirectAllgather;
import io.railcoll.algorithm.allgather.SmpGatherBroadcastAllgather;
import io.railcoll.algorithm.allgather.SmpGatherMulticastAllgather;
import io.railcoll.algorithm.allgather.StandardExchangeAllgather;
import io.railcoll.algorithm.allreduce.KportAllreduce;
import io.railcoll.algorithm.allreduce.RabenseifnerAllreduce;
import io.railcoll.algorithm.allreduce.RecursiveDoublingAllreduce;
import io.railcoll.algorithm.allreduce.RingAllreduce;
import io.railcoll.algorithm.allreduce.SmpAllreduce;
import io.railcoll.algorithm.alltoall.BruckAlltoall;
import io.railcoll.algorithm.alltoall.DirectAlltoall;
import io.railcoll.algorithm.alltoall.PairwiseAlltoall;
import io.railcoll.algorithm.alltoall.StandardExchangeAlltoall;
import io.railcoll.algorithm.barrier.DisseminationBarrier;
import io.railcoll.algorithm.deterministic.RankOrderReduction;
import io.railcoll.algorithm.reduce.BinomialReduce;
import io.railcoll.algorithm.reduce.RabenseifnerReduce;
import io.railcoll.algorithm.reducescatter.RecursiveHalvingReduceScatter;
import io.railcoll.algorithm.reducescatter.RingReduceScatter;
import io.railcoll.algorithm.scan.RecursiveDoublingScan;
import io.railcoll.algorithm.scan.SmpScan;
import io.railcoll.algorithm.scatter.BinomialScatter;
import io.railcoll.algorithm.scatter.DirectScatter;
import io.railcoll.algorithm.allgatherv.DirectAllgatherv;
import io.railcoll.algorithm.allgatherv.RingAllgatherv;
import io.railcoll.algorithm.alltoallv.DirectAlltoallv;
import io.railcoll.algorithm.alltoallv.PairwiseAlltoallv;
import io.railcoll.algorithm.gatherv.BinomialGatherv;
import io.railcoll.algorithm.gatherv.DirectGatherv;
import io.railcoll.algorithm.reducescatterv.DirectReduceScatterv;
import io.railcoll.algorithm.reducescatterv.RingReduceScatterv;
import io.railcoll.algorithm.scatterv.BinomialScatterv;
import io.railcoll.algorithm.scatterv.DirectScatterv;
import io.railcoll.algorithm.broadcast.KnomialBroadcast;
import io.railcoll.algorithm.broadcast.MulticastBroadcastAlgorithm;
import io.railcoll.algorithm.broadcast.ScatterAllgatherBroadcast;
import io.railcoll.algorithm.gather.BinomialTreeGather;
import io.railcoll.algorithm.gather.DirectGather;
import io.railcoll.algorithm.shm.NodeAllreduce;
import io.railcoll.algorithm.shm.NodeDisseminationBarrier;
import io.railcoll.algorithm.shm.NodeDoublingAllreduce;
import io.railcoll.algorithm.shm.NodeBroadcast;
import io.railcoll.algorithm.shm.NodeFlagBarrier;
import io.railcoll.algorithm.shm.NodeAllgather;
import io.railcoll.algorithm.shm.NodeGather;
import io.railcoll.algorithm.shm.NodeReduceScatter;
import io.railcoll.algorithm.shm.NodeScan;
import io.railcoll.algorithm.shm.SingleCopyAllgather;
import io.railcoll.algorithm.shm.SingleCopyAllreduce;
import io.railcoll.algorithm.shm.SingleCopyScan;
import io.railcoll.algorithm.shm.SingleCopyMultiLeaderAllreduce;
import io.railcoll.algorithm.shm.SingleCopyBroadcast;
import io.railcoll.algorithm.shm.SingleCopyScatterAllgatherBroadcast;
import io.railcoll.algorithm.shm.SingleCopyGather;
import io.railcoll.algorithm.shm.SmpDirectShmAllgather;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifest of every algorithm railcoll has: one line per algorithm below, one row per algorithm in
 * {@code docs/algorithms.md}. Selection, the CLI, the property tests and the system tests enumerate it, so a new
 * algorithm is picked up everywhere by adding it here. Immutable and thread-safe.
 */
public final class AlgorithmCatalog {

    private static final AlgorithmCatalog STANDARD = new AlgorithmCatalog(List.of(
            new BinomialTreeGather(),
            new DirectGather(),
            new NodeGather(),
            new SingleCopyGather(),
            new DirectAllgather(),
            new StandardExchangeAllgather(),
            new BruckAllgather(),
            new RingAllgather(),
            new GatherBroadcastAllgather(),
            new SmpGatherBroadcastAllgather(),
            new SmpGatherMulticastAllgather(),
            new SmpDirectAllgather(),
            new SmpBruckAllgather(),
            MultiConnectionAllgather.singleGroup(),
            new GatherBasedMultiConnectionAllgather(),
            MultiConnectionAllgather.twoGroup(),
            MultiConnectionAllgather.groups(),
            new NodeAllgather(),
            new SmpDirectShmAllgather(),
            new SingleCopyAllgather(),
            new DirectAlltoall(),
            new StandardExchangeAlltoall(),
            new BruckAlltoall(),
            new PairwiseAlltoall(),
            new KnomialBroadcast(),
            new ScatterAllgatherBroadcast(),
            new MulticastBroadcastAlgorithm(),
            new NodeBroadcast(),
            new SingleCopyBroadcast(),
            new SingleCopyScatterAllgatherBroadcast(),
            new RecursiveDoublingAllreduce(),
            new RingAllreduce(),
            new RabenseifnerAllreduce(),
            new KportAllreduce(),
            SmpAllreduce.oneLeader(),
            SmpAllreduce.everyRankLeads(),
            SmpAllreduce.everyRankLeadsRabenseifner(),
            SmpAllreduce.everyRankLeadsDirect(),
            new NodeAllreduce(),
            new NodeDoublingAllreduce(),
            new SingleCopyAllreduce(),
            new SingleCopyMultiLeaderAllreduce(),
            new BinomialReduce(),
            new RabenseifnerReduce(),
            new RingReduceScatter(),
            new RecursiveHalvingReduceScatter(),
            new NodeReduceScatter(),
            RecursiveDoublingScan.inclusive(),
            RecursiveDoublingScan.exclusive(),
            new SmpScan(),
            NodeScan.inclusive(),
            NodeScan.exclusive(),
            SingleCopyScan.inclusive(),
            SingleCopyScan.exclusive(),
            RankOrderReduction.allreduce(),
            RankOrderReduction.reduce(),
            RankOrderReduction.reduceScatter(),
            RankOrderReduction.scan(),
            RankOrderReduction.exscan(),
            new BinomialScatter(),
            new DirectScatter(),
            new DirectGatherv(),
            new BinomialGatherv(),
            new DirectScatterv(),
            new BinomialScatterv(),
            new RingAllgatherv(),
            new DirectAllgatherv(),
            new DirectAlltoallv(),
            new PairwiseAlltoallv(),
            new RingReduceScatterv(),
            new DirectReduceScatterv(),
            new DisseminationBarrier(),
            new NodeFlagBarrier(),
            new NodeDisseminationBarrier()));

    private final Map<String, Algorithm> byId;

    private AlgorithmCatalog(List<Algorithm> algorithms) {
        Map<String, Algorithm> map = new LinkedHashMap<>();
        for (Algorithm a : algorithms) {
            if (map.put(a.id(), a) != null) {
                throw new IllegalStateException("two algorithms with id " + a.id());
            }
        }
        this.byId = Collections.unmodifiableMap(map);
    }

    /** The catalog of every built-in algorithm. */
    public static AlgorithmCatalog standard() {
        return STANDARD;
    }

    /** Every algorithm, in catalog order (grouped by collective). */
    public List<Algorithm> all() {
        return List.copyOf(byId.values());
    }

    /** Every id, in catalog order. */
    public List<String> ids() {
        return List.copyOf(byId.keySet());
    }

    /**
     * The algorithm with this id.
     *
     * @throws IllegalArgumentException for an unknown id, listing the known ones
     */
    public Algorithm byId(String id) {
        Algorithm a = byId.get(id);
        if (a == null) {
            throw new IllegalArgumentException("unknown algorithm '" + id + "'; known: " + String.join(", ", byId.keySet()));
        }
        return a;
    }

    /** The algorithms of one collective, in catalog order. */
    public List<Algorithm> forCollective(Collective collective) {
        List<Algorithm> list = new ArrayList<>();
        for (Algorithm a : byId.values()) {
            if (a.collective() == collective) {
                list.add(a);
            }
        }
        return List.copyOf(list);
    }

    /**
     * The algorithm with this id, which must be able to run {@code shape}: a forced algorithm never falls back.
     *
     * @throws IllegalArgumentException for an unknown id, or saying why the algorithm cannot run the shape
     */
    public Algorithm require(String id, Shape shape) {
        Algorithm a = byId(id);
        a.unsupportedReason(shape).ifPresent(reason -> {
            throw new IllegalArgumentException("algorithm " + id + " cannot run " + shape.collective().id() + " on N="
                    + shape.size() + " (" + shape.placement().describe() + "), k=" + shape.ports() + ", b="
                    + shape.blockBytes() + ", root=" + shape.root() + ": " + reason);
        });
        return a;
    }
}
