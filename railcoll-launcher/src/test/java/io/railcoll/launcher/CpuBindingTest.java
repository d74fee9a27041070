package io.railcoll.launcher;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuBindingTest {
    private static final List<Integer> CPUS = List.of(2, 3, 6);

    @Test
    void parsesKernelCpuLists() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), CpuBinding.parseCpuList("0-3,8,10-11\n"));
        assertEquals(List.of(5), CpuBinding.parseCpuList(" 5 "));
        assertThrows(IllegalArgumentException.class, () -> CpuBinding.parseCpuList("3-1"));
    }

    @Test
    void autoBindsRoundRobinUpToFourRanksPerProcessor() {
        CpuBinding fits = CpuBinding.of(CpuBinding.Mode.AUTO, 3, CPUS, "/usr/bin/taskset");
        assertTrue(fits.binds());
        assertEquals(List.of(2, 3, 6), List.of(fits.cpuOf(0), fits.cpuOf(1), fits.cpuOf(2)));
        assertEquals(List.of("/usr/bin/taskset", "-c", "3"), fits.commandPrefix(1));
        Map<String, String> env = new HashMap<>();
        fits.addEnvironment(env);
        assertEquals("3", env.get("RAILCOLL_NODE_CPUS"));

        CpuBinding shared = CpuBinding.of(CpuBinding.Mode.AUTO, 12, CPUS, "/usr/bin/taskset");
        assertTrue(shared.binds());
        assertEquals(List.of(2, 3, 6, 2), List.of(shared.cpuOf(0), shared.cpuOf(1), shared.cpuOf(2), shared.cpuOf(3)));

        CpuBinding over = CpuBinding.of(CpuBinding.Mode.AUTO, 13, CPUS, "/usr/bin/taskset");
        assertFalse(over.binds());
        assertEquals(List.of(), over.commandPrefix(0));
        Map<String, String> none = new HashMap<>();
        over.addEnvironment(none);
        assertTrue(none.isEmpty());
    }

    @Test
    void coreBindsRoundRobinAndNoneNever() {
        CpuBinding core = CpuBinding.of(CpuBinding.Mode.CORE, 5, CPUS, "/usr/bin/taskset");
        assertEquals(List.of(2, 3, 6, 2, 3), List.of(core.cpuOf(0), core.cpuOf(1), core.cpuOf(2), core.cpuOf(3), core.cpuOf(4)));
        assertFalse(CpuBinding.of(CpuBinding.Mode.NONE, 1, CPUS, "/usr/bin/taskset").binds());
        assertFalse(CpuBinding.of(CpuBinding.Mode.CORE, 1, CPUS, null).binds(), "no taskset, no binding");
    }

    @Test
    void settingIsParsedStrictly() {
        assertEquals(CpuBinding.Mode.AUTO, CpuBinding.parse(null));
        assertEquals(CpuBinding.Mode.NONE, CpuBinding.parse(" None "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuBinding.parse("socket"));
        assertTrue(e.getMessage().contains("RAILCOLL_BIND=socket is not one of the accepted values; accepted: auto, core, none"),
                e.getMessage());
    }
}
