package io.railcoll.select;

import com.code_intelligence.jazzer.junit.FuzzTest;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fuzz target: the tuning-file loader ({@code RAILCOLL_TUNING}). Whatever the text, it loads or fails with a
 * {@link TuningFileException} naming the line (never another exception), and a tuning it loads is written back
 * ({@link TuningFile#format}) to text that loads to the same tuning.
 *
 * <p>Regression inputs: {@code src/test/resources/io/railcoll/select/TuningFileFuzzTestInputs/parse/}.
 */
class TuningFileFuzzTest {
    @FuzzTest
    void parse(byte[] bytes) {
        String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        Tuning t;
        try {
            t = TuningFile.parse(text, "fuzz");
        } catch (TuningFileException refused) {
            return;
        }
        String formatted = TuningFile.format(t);
        Tuning again = TuningFile.parse(formatted, "fuzz-again");
        assertEquals(formatted, TuningFile.format(again), "a loaded tuning writes back to text that loads the same");
    }
}
