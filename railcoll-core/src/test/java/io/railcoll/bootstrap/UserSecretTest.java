package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The job secret a user gives when the launcher has no channel for one. */
class UserSecretTest {
    @TempDir
    Path dir;

    @Test
    void fromAFileWithoutItsTrailingNewline() throws Exception {
        Path f = dir.resolve("secret");
        Files.writeString(f, "abc123\n", StandardCharsets.UTF_8);
        UserSecret s = UserSecret.fromEnvironment(Map.of("RAILCOLL_SECRET_FILE", f.toString()), "test");
        assertArrayEquals("abc123".getBytes(StandardCharsets.UTF_8), s.secret());
        assertEquals("RAILCOLL_SECRET_FILE=" + f, s.origin());
    }

    @Test
    void fromTheVariable() {
        UserSecret s = UserSecret.fromEnvironment(Map.of("RAILCOLL_SECRET", " xyz "), "test");
        assertArrayEquals("xyz".getBytes(StandardCharsets.UTF_8), s.secret());
        assertEquals("RAILCOLL_SECRET", s.origin());
    }

    @Test
    void missingBothEmptyUnreadableOrBothSetAreNamed() throws Exception {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> UserSecret.fromEnvironment(Map.of(), "Slurm's environment offers no channel"));
        assertTrue(none.getMessage().contains("RAILCOLL_SECRET_FILE") && none.getMessage().contains("RAILCOLL_SECRET ")
                && none.getMessage().contains("Slurm's environment"), none.getMessage());
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UserSecret.fromEnvironment(Map.of("RAILCOLL_SECRET_FILE", empty.toString()), "t"));
        assertTrue(e.getMessage().contains(empty.toString()) && e.getMessage().contains("empty"), e.getMessage());
        Path missing = dir.resolve("nope");
        e = assertThrows(IllegalArgumentException.class,
                () -> UserSecret.fromEnvironment(Map.of("RAILCOLL_SECRET_FILE", missing.toString()), "t"));
        assertTrue(e.getMessage().contains("RAILCOLL_SECRET_FILE=" + missing), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> UserSecret.fromEnvironment(
                Map.of("RAILCOLL_SECRET_FILE", empty.toString(), "RAILCOLL_SECRET", "x"), "t"));
        assertTrue(e.getMessage().contains("both"), e.getMessage());
    }
}
