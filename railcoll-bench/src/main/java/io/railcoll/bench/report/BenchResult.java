package io.railcoll.bench.report;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One measured point: a series at one message size, summarised over repeated samples.
 *
 * <p>Each sample is OSU-style (every rank averages its own calls, the sample is the maximum of those
 * averages over ranks); the three latencies are the minimum, median and maximum over samples, in
 * microseconds. Immutable.
 *
 * @param series          what was measured
 * @param sizeBytes       the block size: the bytes each rank contributes (0 for a barrier)
 * @param latencyUsMedian median over samples
 * @param latencyUsMin    fastest sample
 * @param latencyUsMax    slowest sample
 * @param samples         how many samples the three latencies summarise
 * @param bandwidthMbitS  optional bandwidth in Mbit/s, as the caller defines it for the collective
 */
public record BenchResult(Series series, long sizeBytes, double latencyUsMedian, double latencyUsMin,
                          double latencyUsMax, int samples, OptionalDouble bandwidthMbitS) {

    public BenchResult {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(bandwidthMbitS, "bandwidthMbitS (use OptionalDouble.empty())");
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

    /** The point summarising {@code samples} (which must not be empty), without a bandwidth. */
    public static BenchResult of(Series series, long sizeBytes, Samples samples) {
        return new BenchResult(series, sizeBytes, samples.medianUs(), samples.minUs(), samples.maxUs(),
                samples.count(), OptionalDouble.empty());
    }

    /** This point with a bandwidth attached. */
    public BenchResult withBandwidthMbitS(double mbitPerSecond) {
        return new BenchResult(series, sizeBytes, latencyUsMedian, latencyUsMin, latencyUsMax, samples,
                OptionalDouble.of(mbitPerSecond));
    }
}
