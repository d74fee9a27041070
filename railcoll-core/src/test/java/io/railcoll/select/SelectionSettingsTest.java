package io.railcoll.select;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelectionSettingsTest {
    @TempDir
    Path dir;

    @Test
    void railcollTuningNamesTheFileElseTheBuiltInTableApplies() throws IOException {
        Path file = dir.resolve("mine.properties");
        Files.writeString(file, """
                railcoll.tuning.version = 1
                model.shm.alpha-ns = 1
                model.shm.ns-per-byte = 1
                model.rail.alpha-ns = 1
                model.rail.ns-per-byte = 1
                rule.barrier.1 = barrier.dissemination
                """);
        AlgorithmSelector s = AlgorithmSelector.fromEnvironment(Map.of(), Map.of("RAILCOLL_TUNING", file.toString()));
        assertEquals(file.toString(), s.tuning().source());
        assertEquals(1, s.tuning().rules().size());
        assertEquals("built-in", AlgorithmSelector.fromEnvironment(Map.of(), Map.of()).tuning().source());
        assertEquals("built-in", AlgorithmSelector.fromEnvironment(Map.of(), Map.of("RAILCOLL_TUNING", " ")).tuning().source());
    }

    @Test
    void aMissingFileFailsStartUpNamingIt() {
        Path missing = dir.resolve("nope.properties");
        TuningFileException e = assertThrows(TuningFileException.class,
                () -> AlgorithmSelector.fromEnvironment(Map.of(), Map.of("RAILCOLL_TUNING", missing.toString())));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }
}
