package io.railcoll.systemtest.launch;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Debian's MPICH {@code mpiexec.hydra} starts a plain {@code main} with no railcoll variable: the ranks speak PMI-1
 * to Hydra over the inherited descriptor {@code PMI_FD} (its default) or over {@code PMI_PORT} ({@code -pmi-port}),
 * and every collective is checked byte for byte.
 */
class HydraLaunchSystemTest {

    @BeforeEach
    void hydraPresent() {
        assumeTrue(Launch.runs("mpiexec.hydra", "--version"),
                "skipped: MPICH's mpiexec.hydra is not installed (apt-get install mpich)");
    }

    @ParameterizedTest(name = "{0} ranks over {1}")
    @CsvSource({"4, PMI_FD", "6, PMI_FD", "4, PMI_PORT"})
    void hydraStartsAPlainMainThroughPmi1(int ranks, String channel) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("mpiexec.hydra"));
        if (channel.equals("PMI_PORT")) {
            cmd.add("-pmi-port");
        }
        cmd.addAll(List.of("-n", Integer.toString(ranks)));
        cmd.addAll(Launch.javaCommand(LaunchedMain.class));
        Launch.Result r = Launch.run(cmd, Map.of(), 300);
        Launch.assertAllRanks(r, ranks, "pmi1");
    }
}
