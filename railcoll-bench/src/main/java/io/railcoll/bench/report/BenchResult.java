package io.railcoll.bench.report;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One measured point: a series at one message size, summarised over repeated samples.
 *
 * <p>Each sample is OSU-style (every rank averages its own calls, the sample is the maximum of those
 * averages over ranks); the three latencies are the minimum, median and maximum over samples, in
 * microseconds. Immutable.
 *
 * <p>At small sizes a point also carries what a call adds to a loop of barriers ({@link AddedToBarrier}, decision
 * 0232), measured in the same samples: a second figure that does not depend on the barrier's exit order.
 *
 * @param series          what was measured
 * @param sizeBytes       the block size: the bytes each rank contributes (0 for a barrier)
 * @param latencyUsMedian median over samples
 * @param latencyUsMin    fastest sample
 * @param latencyUsMax    slowest sample
 * @param samples         how many samples the three latencies summarise
 * @param bandwidthMbitS  optional bandwidth in Mbit/s, as the caller defines it for the collective
 * @param addedToBarrier  what a call adds to a loop of barriers, where it was measured (small sizes, decision 0232)
 */
public record BenchResult(Series series, long sizeBytes, double latencyUsMedian, double latencyUsMin,
                          double latencyUsMax, int samples, OptionalDouble bandwidthMbitS,
                          Optional<AddedToBarrier> addedToBarrier) {

    public BenchResult {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(bandwidthMbitS, "bandwidthMbitS (use OptionalDouble.empty())");
        Objects.requireNonNull(addedToBarrier, "addedToBarrier (use Optional.empty())");
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must be >= 0, got " + sizeBytes);
        }
        if (samples < 1) {
            throw new IllegalArgumentException("a result needs at least one sample, got " + samples);
        }
        if (!(latencyUsMin >= 0 && latencyUsMin <= latencyUsMedian && latencyUsMedian <= latencyUsMax)) {
            throw new IllegalArgumentException("need 0 <= min <= median <= max, got " + latencyUsMin + ", "
                    + latencyUsMedian + ", " + latencyUsMax);
        }
    }

    /** A point without the figure added to a barrier loop (large sizes, barriers, peers that do not measure it). */
    public BenchResult(Series series, long sizeBytes, double latencyUsMedian, double latencyUsMin, double latencyUsMax,
                       int samples, OptionalDouble bandwidthMbitS) {
        this(series, sizeBytes, latencyUsMedian, latencyUsMin, latencyUsMax, samples, bandwidthMbitS, Optional.empty());
    }

    /** The point summarising {@code samples} (which must not be empty), without a bandwidth. */
    public static BenchResult of(Series series, long sizeBytes, Samples samples) {
        return new BenchResult(series, sizeBytes, samples.medianUs(), samples.minUs(), samples.maxUs(),
                samples.count(), OptionalDouble.empty());
    }

    /**
     * The point summarising {@code samples} and, when there are any, the same samples' figures added to a barrier
     * loop ({@code added} may be null or empty: not measured at this point).
     */
    public static BenchResult of(Series series, long sizeBytes, Samples samples, AddedToBarrierSamples added) {
        BenchResult r = of(series, sizeBytes, samples);
        return added == null || added.count() == 0 ? r : r.withAddedToBarrier(added.summary());
    }

    /** This point with a bandwidth attached. */
    public BenchResult withBandwidthMbitS(double mbitPerSecond) {
        return new BenchResult(series, sizeBytes, latencyUsMedian, latencyUsMin, latencyUsMax, samples,
                OptionalDouble.of(mbitPerSecond), addedToBarrier);
    }

    /** This point with what a call adds to a loop of barriers attached. */
    public BenchResult withAddedToBarrier(AddedToBarrier added) {
        return new BenchResult(series, sizeBytes, latencyUsMedian, latencyUsMin, latencyUsMax, samples, bandwidthMbitS,
                Optional.of(added));
    }
}
