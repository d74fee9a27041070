package io.railcoll.bench.peer;

import io.railcoll.bench.report.BenchResult;

import java.util.List;
import java.util.Objects;

/**
 * What one peer sweep returned: its points, the rail-accounting lines its ranks printed (empty without accounting),
 * and which library ran them, with its version and the path of its launcher, for the report. Immutable.
 *
 * @param failures what the peer could not measure, in words for the report (a collective it lacks, a size that
 *                 failed); empty when everything ran
 */
public record PeerResults(String name, String identity, List<BenchResult> results, List<String> railLines,
                          List<String> failures) {
    public PeerResults {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(identity, "identity");
        results = List.copyOf(results);
        railLines = List.copyOf(railLines);
        failures = List.copyOf(failures);
    }
}
