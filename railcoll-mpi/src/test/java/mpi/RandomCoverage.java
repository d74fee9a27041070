package mpi;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the random call test drew, counted per rank and draw (a call on 5 ranks counts 5): how often each feature ran,
 * so a run can say what it covered (decision 0224). Printed after the test class when {@code -Drandom.mpi.coverage}
 * names a file (or is {@code true}: standard error). Counting is a map update per draw, off the calls under test.
 */
final class RandomCoverage {
    private RandomCoverage() {
    }

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();

    static void count(String what) {
        COUNTS.computeIfAbsent(what, k -> new LongAdder()).increment();
    }

    /** Every feature and its count, sorted by name, one per line. */
    static String report() {
        StringBuilder out = new StringBuilder();
        Map<String, Long> sorted = new TreeMap<>();
        COUNTS.forEach((k, v) -> sorted.put(k, v.sum()));
        sorted.forEach((k, v) -> out.append(v).append('\t').append(k).append('\n'));
        return out.toString();
    }

    /** Writes the report where {@code -Drandom.mpi.coverage} says, if it says. */
    static void dump() throws java.io.IOException {
        String where = System.getProperty("random.mpi.coverage");
        if (where == null || where.isEmpty()) {
            return;
        }
        if (where.equals("true")) {
            System.err.print(report());
        } else {
            java.nio.file.Files.writeString(java.nio.file.Path.of(where), report());
        }
    }
}
