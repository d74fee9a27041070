package io.railcoll.bootstrap;

import io.railcoll.settings.RailcollSettings;
import io.railcoll.settings.Setting;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Who this process is in its job, read from the environment a launcher set. Recognised, in this order:
 * railcoll's own launcher ({@code RAILCOLL_RANK}, {@code RAILCOLL_SIZE}), Open MPI's mpirun
 * ({@code OMPI_COMM_WORLD_RANK}, {@code OMPI_COMM_WORLD_SIZE}) and Slurm's srun ({@code SLURM_PROCID},
 * {@code SLURM_NTASKS}). Whatever started the ranks, railcoll's variables give the rest (this is the {@code railcoll}
 * {@link BootstrapSource}, chosen whenever {@code RAILCOLL_RANK} or {@code RAILCOLL_RENDEZVOUS} is set; see
 * {@link BootstrapSources} for the launchers that need none of them):
 * <ul>
 *   <li>{@code RAILCOLL_RENDEZVOUS}: host:port of the rendezvous (required);</li>
 *   <li>{@code RAILCOLL_RENDEZVOUS_SERVER=rank0|launcher} (default launcher): rank 0 serves the rendezvous itself at that address (for ranks
 *       started by mpirun or srun, where no railcoll launcher runs);</li>
 *   <li>{@code RAILCOLL_SECRET} or {@code RAILCOLL_SECRET_FILE}: the job secret every connection proves it knows
 *       (required, {@link UserSecret});</li>
 *   <li>{@code RAILCOLL_JOB_ID}: names the job in handshakes and shared-memory files (default: derived from the secret);</li>
 *   <li>{@code RAILCOLL_NODE}: a key shared by the ranks of one node (default: the host name);</li>
 *   <li>{@code RAILCOLL_RAILS}: the rails, one per selected local address: addresses, interface names, CIDR blocks,
 *       {@code auto} and {@code ^exclusions}, comma-separated ({@link RailDiscovery}; default: one rail on the address
 *       used to reach the rendezvous).</li>
 * </ul>
 */
public record JobIdentity(
        int rank,
        int size,
        String jobId,
        byte[] secret,
        String nodeKey,
        List<InetAddress> railAddresses,
        InetSocketAddress rendezvous,
        boolean servesRendezvous) {

    public JobIdentity {
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank " + rank + " of " + size + " is not a valid rank");
        }
        railAddresses = List.copyOf(railAddresses);
        secret = secret.clone();
    }

    public static JobIdentity fromEnvironment(Map<String, String> env) {
        // Checked first: a bad value is refused here, not found out by a rendezvous that never answers.
        RailcollSettings.RENDEZVOUS_SERVER.read(env);
        int rank = firstInt(env, "rank", "RAILCOLL_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK");
        int size = firstInt(env, "size", "RAILCOLL_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE");
        String rv = required(env, "RAILCOLL_RENDEZVOUS", "host:port of the job's rendezvous");
        byte[] secret = UserSecret.fromEnvironment(env, "ranks started with RAILCOLL_RENDEZVOUS share no other channel"
                + " (bin/railcoll run sets RAILCOLL_SECRET)").secret();
        String jobId = env.getOrDefault("RAILCOLL_JOB_ID", "");
        if (jobId.isBlank()) {
            jobId = Integer.toHexString(new String(secret, StandardCharsets.UTF_8).hashCode() & 0x7fffffff);
        }
        String nodeKey = env.getOrDefault("RAILCOLL_NODE", "");
        if (nodeKey.isBlank()) {
            nodeKey = hostName();
        }
        boolean serves = RailcollSettings.RENDEZVOUS_SERVER.read(env).equals("rank0");
        return new JobIdentity(rank, size, jobId, secret, nodeKey, railsFromEnvironment(env), parseHostPort(rv), serves);
    }

    /** This node's rail addresses from {@code RAILCOLL_RAILS} ({@link RailDiscovery}); empty when it is not set. */
    public static List<InetAddress> railsFromEnvironment(Map<String, String> env) {
        return RailDiscovery.fromSpec(env.getOrDefault("RAILCOLL_RAILS", ""));
    }

    private static final Setting<Integer> PORT = Setting.integer("port", 0, 65535, 0, "", "a TCP port");

    public static InetSocketAddress parseHostPort(String hp) {
        int colon = hp.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("expected host:port, got '" + hp + "'");
        }
        int port = PORT.parse(hp.substring(colon + 1));
        try {
            return new InetSocketAddress(InetAddress.getByName(hp.substring(0, colon)), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad host:port '" + hp + "': unknown host", e);
        }
    }

    static int firstInt(Map<String, String> env, String what, String... names) {
        // Every launcher's variable is held to the range of railcoll's own.
        return what.equals("rank") ? firstInt(env, what, 0, Integer.MAX_VALUE - 1, names)
                : firstInt(env, what, 1, Integer.MAX_VALUE, names);
    }

    /** The first of {@code names} that is set, as a whole number in {@code [min, max]}; a value outside is refused. */
    static int firstInt(Map<String, String> env, String what, int min, int max, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) {
                return Setting.integer(n, min, max, min, "", what).parse(v);
            }
        }
        throw new IllegalArgumentException("cannot tell this process's " + what + ": none of " + String.join(", ", names)
                + " is set; start ranks with bin/railcoll run, mpirun or srun");
    }

    private static String required(Map<String, String> env, String name, String what) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set: it must hold " + what);
        }
        return v.strip();
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
