package io.railcoll.bootstrap;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * Ranks started with PyTorch's launch variables, which {@code torchrun} and the Kubernetes training operators
 * (Kubeflow's PyTorchJob, JobSet recipes) set: {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK},
 * {@code LOCAL_WORLD_SIZE}, {@code MASTER_ADDR}, {@code MASTER_PORT}. Rank 0 serves the rendezvous at
 * {@code MASTER_PORT} on every address of its node; the others connect to {@code MASTER_ADDR}.
 * {@code RAILCOLL_RENDEZVOUS_PORT} replaces the port where another program holds {@code MASTER_PORT} (torchrun's
 * own agent does). These variables are
 * no secure channel: the secret is the user's ({@link UserSecret}). The job id is {@code TORCHELASTIC_RUN_ID} where
 * torchrun sets it, else made of the master's address and port (unique while the job holds that port).
 */
final class TorchrunEnvironment {
    private TorchrunEnvironment() {
    }

    static boolean offered(Map<String, String> env) {
        return present(env, "RANK") && present(env, "WORLD_SIZE") && present(env, "MASTER_ADDR")
                && present(env, "MASTER_PORT");
    }

    static BootstrapSource open(Map<String, String> env, PrintStream log) {
        int rank = JobIdentity.firstInt(env, "rank", "RANK");
        int size = JobIdentity.firstInt(env, "size", "WORLD_SIZE");
        int localRank = present(env, "LOCAL_RANK") ? JobIdentity.firstInt(env, "local rank", 0, Integer.MAX_VALUE - 1, "LOCAL_RANK") : -1;
        int localSize = present(env, "LOCAL_WORLD_SIZE")
                ? JobIdentity.firstInt(env, "local size", "LOCAL_WORLD_SIZE") : -1;
        String addr = env.get("MASTER_ADDR").strip();
        int port = JobIdentity.firstInt(env, "rendezvous port", 1, 65535, SlurmEnvironment.PORT_VARIABLE, "MASTER_PORT");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException((present(env, SlurmEnvironment.PORT_VARIABLE)
                    ? SlurmEnvironment.PORT_VARIABLE : "MASTER_PORT") + "=" + port + " is not a TCP port");
        }
        InetSocketAddress master = JobIdentity.parseHostPort(addr + ":" + port);
        String node = present(env, "RAILCOLL_NODE") ? env.get("RAILCOLL_NODE").strip() : JobIdentity.hostName();
        String jobId = present(env, "TORCHELASTIC_RUN_ID")
                ? RankIdentity.jobIdFrom("torch-", env.get("TORCHELASTIC_RUN_ID").strip())
                : RankIdentity.jobIdFrom("torch-", addr + "-" + port);
        UserSecret secret = UserSecret.fromEnvironment(env, "torchrun-style variables (RANK, WORLD_SIZE, MASTER_ADDR)"
                + " offer no channel to share one safely");
        JobIdentity job = new JobIdentity(rank, size, jobId, secret.secret(), node, JobIdentity.railsFromEnvironment(env),
                master, true);
        return new RendezvousSource("torchrun", job, localRank, localSize, new InetSocketAddress(port), secret.origin(),
                List.of("launcher: torchrun-style variables, master " + addr + ":" + port), log);
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
