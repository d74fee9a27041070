package io.railcoll.algorithm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.ResourceTable;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Pins what every catalog algorithm produces, so that a clean-up of algorithm code can be shown to change nothing:
 * for each algorithm and each placement below, a SHA-256 over, shape by shape (k 1..3, block sizes 0, 1, 1000,
 * roots first/middle/last, groups 1..4), the refusal reason or else every rank's {@code RankProgram} in rank order,
 * the phase of each op for a {@link ResourceTable.Phased} algorithm, and the stated {@code CostTerms}. The expected
 * digests are {@code program-digests.txt} beside this class in the test resources, one line per algorithm and
 * placement.
 *
 * <p>A change that is meant to alter programs re-records them: run this test with
 * {@code -Drailcoll.digests.record=true} (from {@code railcoll-core}), which rewrites the resource file instead of
 * comparing, and review the diff of that file.
 */
class ProgramDigestsTest {
    private static final String RESOURCE = "program-digests.txt";
    private static final Path SOURCE = Path.of("src/test/resources/io/railcoll/algorithm", RESOURCE);
    private static final int[] PORTS = {1, 2, 3};
    private static final long[] BLOCK_SIZES = {0, 1, 1000};
    private static final int MAX_GROUPS = 4;

    /** The placements pinned, by a label that tells non-contiguous ones apart. */
    static Map<String, Placement> placements() {
        Map<String, Placement> map = new LinkedHashMap<>();
        map.put("1x1", Placement.uniform(1, 1));
        map.put("1x8", Placement.singleNode(8));
        map.put("2x3", Placement.uniform(2, 3));
        map.put("3,4,2", Placement.ofCounts(3, 4, 2));
        map.put("4x4", Placement.uniform(4, 4));
        map.put("5x2", Placement.uniform(5, 2));
        map.put("8x2", Placement.uniform(8, 2));
        int[][] scattered = {{0, 1, 0, 1, 2, 0}, {1, 0, 0, 2, 1, 2, 2, 1, 0}};
        for (int[] nodeIds : scattered) {
            map.put("ids=" + Arrays.toString(nodeIds).replace(" ", ""), Placement.ofNodeIds(nodeIds));
        }
        return map;
    }

    /** Every line of the digest file, in catalog then placement order: {@code id placement sha256}. */
    static List<String> digests() {
        List<String> lines = new ArrayList<>();
        for (Algorithm algorithm : AlgorithmCatalog.standard().all()) {
            for (Map.Entry<String, Placement> entry : placements().entrySet()) {
                lines.add(algorithm.id() + " " + entry.getKey() + " " + digest(algorithm, entry.getValue()));
            }
        }
        return lines;
    }

    private static String digest(Algorithm algorithm, Placement placement) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        int n = placement.size();
        List<Integer> roots = new ArrayList<>(List.of(0));
        for (int root : new int[] {n / 2, n - 1}) {
            if (!roots.contains(root)) {
                roots.add(root);
            }
        }
        for (int k : PORTS) {
            for (long b : BLOCK_SIZES) {
                for (int root : roots) {
                    for (int g = 1; g <= MAX_GROUPS; g++) {
                        Shape shape = new Shape(algorithm.collective(), placement, k, b, root, g);
                        StringBuilder text = new StringBuilder(shape.toString()).append('\n');
                        Optional<String> refused = algorithm.unsupportedReason(shape);
                        if (refused.isPresent()) {
                            text.append("unsupported: ").append(refused.get()).append('\n');
                        } else {
                            for (int rank = 0; rank < n; rank++) {
                                text.append(algorithm.program(shape, rank)).append('\n');
                                if (algorithm instanceof ResourceTable.Phased phased) {
                                    text.append(Arrays.toString(phased.phaseOfOps(shape, rank))).append('\n');
                                }
                            }
                            text.append(algorithm.cost(shape)).append('\n');
                        }
                        sha.update(text.toString().getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void everyAlgorithmProducesTheRecordedPrograms() throws IOException {
        List<String> actual = digests();
        if (Boolean.getBoolean("railcoll.digests.record")) {
            Files.write(SOURCE, actual, StandardCharsets.UTF_8);
            return;
        }
        List<String> expected;
        try (InputStream in = ProgramDigestsTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, RESOURCE + " is missing; record it with -Drailcoll.digests.record=true");
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            String e = i < expected.size() ? expected.get(i) : "(none)";
            String a = i < actual.size() ? actual.get(i) : "(none)";
            if (!e.equals(a)) {
                changed.add("expected " + e + "\n     got " + a);
            }
        }
        if (!changed.isEmpty()) {
            fail(changed.size() + " of " + expected.size() + " digests differ:\n" + String.join("\n", changed));
        }
        assertEquals(expected, actual);
    }
}
