package io.railcoll.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code railcoll info --env} for environments that need no launcher process (the launchers' own are system tests). */
class LaunchEnvironmentReportTest {

    private record Printed(int status, String out, String err) {
    }

    private static Printed print(Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = LaunchEnvironmentReport.print(env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Printed(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void torchrunStyleVariablesAreShown() {
        Map<String, String> env = new HashMap<>();
        env.put("RANK", "2");
        env.put("WORLD_SIZE", "4");
        env.put("LOCAL_RANK", "0");
        env.put("LOCAL_WORLD_SIZE", "4");
        env.put("MASTER_ADDR", "127.0.0.1");
        env.put("MASTER_PORT", "29512");
        env.put("RAILCOLL_SECRET", "s");
        env.put("RAILCOLL_NODE", "pod-b");
        Printed p = print(env);
        assertEquals(0, p.status(), p.err());
        assertTrue(p.out().contains("bootstrap: torchrun\nrank: 2\nsize: 4\nlocal rank: 0 of 4\nnode: pod-b\n"), p.out());
        assertTrue(p.out().contains("rails: 127.0.0.1 (default"), p.out());
        assertTrue(p.out().contains("secret: RAILCOLL_SECRET"), p.out());
        assertTrue(p.out().contains("rendezvous: 127.0.0.1:29512, served by rank 0"), p.out());
    }

    @Test
    void noLauncherSaysSoAndFails() {
        Printed p = print(Map.of());
        assertEquals(1, p.status());
        assertEquals("bootstrap: none\n", p.out());
        assertTrue(p.err().contains("docs/launching.md"), p.err());
    }
}
