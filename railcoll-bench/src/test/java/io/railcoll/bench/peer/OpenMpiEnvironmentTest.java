package io.railcoll.bench.peer;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OpenMpiEnvironmentTest {
    /** The 16-processor machine's image (2026-11-28), plus what the bundle's env.sh sets and Open MPI needs. */
    private static Map<String, String> deviceEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("OMPI_MCA_plm", "isolated");
        env.put("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
        env.put("PMIX_MCA_gds", "hash");
        env.put("OPAL_PREFIX", "/opt/rcb/ompi/usr");
        env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        env.put("LD_LIBRARY_PATH", "/opt/rcb/ompi/usr/lib");
        env.put("PATH", "/opt/rcb/ompi/usr/bin:/usr/bin");
        return env;
    }

    @Test
    void dropsOpenMpisAndPmixsMcaVariablesOnly() {
        Map<String, String> env = deviceEnvironment();
        assertEquals(List.of("OMPI_MCA_btl_vader_single_copy_mechanism=none", "OMPI_MCA_plm=isolated", "PMIX_MCA_gds=hash"),
                OpenMpiEnvironment.droppedFrom(env));
        OpenMpiEnvironment.scrub(env);
        assertEquals(Map.of("OPAL_PREFIX", "/opt/rcb/ompi/usr", "OMPI_ALLOW_RUN_AS_ROOT", "1",
                "LD_LIBRARY_PATH", "/opt/rcb/ompi/usr/lib", "PATH", "/opt/rcb/ompi/usr/bin:/usr/bin"), env);
        assertEquals(List.of(), OpenMpiEnvironment.droppedFrom(env));
    }

    /** The one-node peer's processes start without them: a run under OMPI_MCA_plm=isolated sees no such variable. */
    @Test
    void peerProcessesStartWithoutThem() {
        PeerProcess.Output out = PeerProcess.run(List.of("/bin/sh", "-c", "env"), Map.of("RAILCOLL_PEER_PROBE", "1"),
                null, java.time.Duration.ofSeconds(10), name -> name.equals("PATH") || OpenMpiEnvironment.dropped(name));
        assertEquals(0, out.exitCode());
        assertEquals(List.of("RAILCOLL_PEER_PROBE=1"),
                out.stdout().lines().filter(l -> l.startsWith("PATH=") || l.startsWith("RAILCOLL_PEER_PROBE=")).toList());
    }
}
