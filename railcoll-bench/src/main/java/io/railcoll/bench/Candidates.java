package io.railcoll.bench;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.Shape;
import io.railcoll.settings.RailcollSettings;

import java.util.Locale;
import java.util.Map;

/**
 * Which catalog algorithms "all" expands to in the bench, sweep and check apps: those that support the shape and,
 * for a transport-provided one, whose transport the job's environment enables: multicast ({@code broadcast.multicast},
 * {@code RAILCOLL_MCAST=auto|on}), the node's shared memory ({@code *.shm}, and the node-step algorithms of decision
 * 0101, {@code RAILCOLL_SHM} not off) or cross-memory attach ({@code *.shm-single-copy}, {@code RAILCOLL_CMA} not
 * off either); forcing it otherwise would fail the run. Stateless.
 */
public final class Candidates {
    private Candidates() {
    }

    public static boolean runnable(Algorithm a, Shape probe, Map<String, String> env) {
        if (a.unsupportedReason(probe).isPresent()) {
            return false;
        }
        if (a.collective().reduces() && a.deterministic() != RailcollSettings.DETERMINISTIC.read(env)) {
            // A deterministic communicator runs only these, and the others only when asked by name (decision 0091).
            return false;
        }
        if (a instanceof PeerAccessUser) {
            // The node agrees on cross-memory attach at start-up; with RAILCOLL_CMA off it never does (decision 0143).
            return sharedMemoryOn(env) && RailcollSettings.CMA.read(env);
        }
        if (a instanceof NodeRegionUser) {
            return sharedMemoryOn(env);
        }
        if (a instanceof io.railcoll.schedule.MulticastUser) {
            String mode = env.getOrDefault("RAILCOLL_MCAST", "off").strip().toLowerCase(Locale.ROOT);
            return mode.equals("auto") || mode.equals("on");
        }
        return true;
    }

    private static boolean sharedMemoryOn(Map<String, String> env) {
        String shm = env.getOrDefault("RAILCOLL_SHM", "on").strip().toLowerCase(Locale.ROOT);
        return !(shm.equals("off") || shm.equals("false") || shm.equals("0"));
    }
}
