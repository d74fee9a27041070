package io.railcoll.bench;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.NodeRegionUser;
import io.railcoll.schedule.PeerAccessUser;
import io.railcoll.schedule.Shape;
import io.railcoll.settings.RailcollSettings;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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
        return refusal(a, probe, env).isEmpty();
    }

    /**
     * Why {@code a} cannot run {@code shape} in a job with settings {@code env}: its own restriction (what the engine
     * refuses a forced algorithm with), a reduction that is not deterministic where the job asks for that, or its
     * transport off; empty where it runs.
     */
    public static Optional<String> refusal(Algorithm a, Shape shape, Map<String, String> env) {
        Optional<String> own = a.unsupportedReason(shape);
        if (own.isPresent()) {
            return own;
        }
        if (a.collective().reduces() && a.deterministic() != RailcollSettings.DETERMINISTIC.read(env)) {
            // A deterministic communicator runs only these, and the others only when asked by name (decision 0091).
            return Optional.of(a.deterministic() ? "a deterministic reduction, and RAILCOLL_DETERMINISTIC is off"
                    : "it does not combine in a fixed rank order, and RAILCOLL_DETERMINISTIC is on (decision 0091)");
        }
        if (a instanceof PeerAccessUser) {
            // The node agrees on cross-memory attach at start-up; with RAILCOLL_CMA off it never does (decision 0143).
            return sharedMemoryOn(env) && RailcollSettings.CMA.read(env) ? Optional.empty()
                    : Optional.of("single copy is off (RAILCOLL_SHM or RAILCOLL_CMA off)");
        }
        if (a instanceof NodeRegionUser) {
            return sharedMemoryOn(env) ? Optional.empty()
                    : Optional.of("no node region: shared memory between a node's ranks is off (RAILCOLL_SHM=off)");
        }
        if (a instanceof io.railcoll.schedule.MulticastUser) {
            String mode = env.getOrDefault("RAILCOLL_MCAST", "off").strip().toLowerCase(Locale.ROOT);
            return mode.equals("auto") || mode.equals("on") ? Optional.empty()
                    : Optional.of("the multicast transport is off (RAILCOLL_MCAST=off)");
        }
        return Optional.empty();
    }

    private static boolean sharedMemoryOn(Map<String, String> env) {
        String shm = env.getOrDefault("RAILCOLL_SHM", "on").strip().toLowerCase(Locale.ROOT);
        return !(shm.equals("off") || shm.equals("false") || shm.equals("0"));
    }
}
