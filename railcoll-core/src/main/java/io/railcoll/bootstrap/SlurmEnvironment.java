package io.railcoll.bootstrap;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Ranks started by Slurm's {@code srun} without a PMI plugin: rank {@code SLURM_PROCID}, size
 * {@code SLURM_STEP_NUM_TASKS} (or {@code SLURM_NTASKS}), local rank {@code SLURM_LOCALID}, node
 * {@code SLURMD_NODENAME}. Rank 0 serves the rendezvous on the first host of {@code SLURM_STEP_NODELIST} (Slurm
 * places rank 0 there under its block and cyclic distributions; rank 0 checks it) at a port derived from the job and
 * step ids, so every rank computes the same address without being told ({@code RAILCOLL_RENDEZVOUS_PORT} replaces
 * it). Slurm's environment is no secure channel:
 * the secret is the user's ({@link UserSecret}).
 */
final class SlurmEnvironment {
    /** Rendezvous ports are {@code BASE_PORT + (job * 97 + step) mod PORT_SPAN}: below Linux's ephemeral range. */
    static final int BASE_PORT = 20_000;
    static final int PORT_SPAN = 10_000;
    /** Replaces the derived port (and torchrun-style {@code MASTER_PORT}) where another program holds it. */
    static final String PORT_VARIABLE = "RAILCOLL_RENDEZVOUS_PORT";

    private SlurmEnvironment() {
    }

    /**
     * Whether srun started this process as a task of a job step. A batch script's shell has {@code SLURM_PROCID} and
     * {@code SLURM_NTASKS} too, but no step: a program run there directly is one process, not a rank of
     * {@code SLURM_NTASKS}, and must not wait for ranks that never come.
     */
    static boolean offered(Map<String, String> env) {
        return present(env, "SLURM_PROCID") && present(env, "SLURM_STEP_ID") && present(env, "SLURM_STEP_NODELIST")
                && present(env, "SLURM_JOB_ID");
    }

    /** The rendezvous port of a job step. */
    static int port(long jobId, long stepId) {
        return BASE_PORT + (int) Math.floorMod(jobId * 97 + stepId, (long) PORT_SPAN);
    }

    static BootstrapSource open(Map<String, String> env, PrintStream log) {
        int rank = JobIdentity.firstInt(env, "rank", "SLURM_PROCID");
        int size = JobIdentity.firstInt(env, "size", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS");
        int localRank = present(env, "SLURM_LOCALID") ? JobIdentity.firstInt(env, "local rank", 0, Integer.MAX_VALUE - 1, "SLURM_LOCALID") : -1;
        int localSize = localTasks(env);
        long job = JobIdentity.firstInt(env, "job id", 0, Integer.MAX_VALUE, "SLURM_JOB_ID");
        long step = JobIdentity.firstInt(env, "step id", 0, Integer.MAX_VALUE, "SLURM_STEP_ID");
        String nodeList = env.get("SLURM_STEP_NODELIST");
        if (nodeList == null || nodeList.isBlank()) {
            throw new IllegalArgumentException("SLURM_STEP_NODELIST is not set: start the ranks with srun");
        }
        String first = NodeList.first(nodeList);
        String node = present(env, "RAILCOLL_NODE") ? env.get("RAILCOLL_NODE").strip()
                : present(env, "SLURMD_NODENAME") ? env.get("SLURMD_NODENAME").strip() : JobIdentity.hostName();
        if (rank == 0 && present(env, "SLURMD_NODENAME") && !env.get("SLURMD_NODENAME").strip().equals(first)) {
            throw new IllegalArgumentException("Slurm placed rank 0 on " + env.get("SLURMD_NODENAME").strip()
                    + ", not on the first node of SLURM_STEP_NODELIST (" + first + ") where the other ranks look for its"
                    + " rendezvous; use --distribution=block or cyclic, or srun --mpi=pmix");
        }
        int port = present(env, PORT_VARIABLE) ? JobIdentity.firstInt(env, "rendezvous port", 1, 65535, PORT_VARIABLE)
                : port(job, step);
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(PORT_VARIABLE + "=" + port + " is not a TCP port");
        }
        InetAddress host;
        try {
            host = InetAddress.getByName(first);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("SLURM_STEP_NODELIST's first host '" + first + "' (rank 0's node) does not"
                    + " resolve here; set RAILCOLL_RENDEZVOUS=address:port with RAILCOLL_RENDEZVOUS_SERVER=rank0", e);
        }
        UserSecret secret = UserSecret.fromEnvironment(env, "Slurm's environment (srun without --mpi=pmix) offers no"
                + " channel to share one safely");
        JobIdentity job0 = new JobIdentity(rank, size, "slurm-" + job + "." + step, secret.secret(), node,
                JobIdentity.railsFromEnvironment(env), new InetSocketAddress(host, port), true);
        List<String> details = new ArrayList<>();
        details.add("launcher: Slurm job " + job + " step " + step + " on " + nodeList + " (no PMI plugin)");
        return new RendezvousSource("slurm", job0, localRank, localSize, new InetSocketAddress(port), secret.origin(),
                details, log);
    }

    /**
     * Tasks on this node from {@code SLURM_STEP_TASKS_PER_NODE} ({@code 4}, {@code 2(x3),1}) at index
     * {@code SLURM_NODEID}; -1 when either is missing.
     */
    static int localTasks(Map<String, String> env) {
        if (!present(env, "SLURM_STEP_TASKS_PER_NODE") || !present(env, "SLURM_NODEID")) {
            return -1;
        }
        int nodeId = JobIdentity.firstInt(env, "node id", 0, Integer.MAX_VALUE, "SLURM_NODEID");
        List<Integer> perNode = new ArrayList<>();
        for (String part : env.get("SLURM_STEP_TASKS_PER_NODE").strip().split(",")) {
            int paren = part.indexOf("(x");
            try {
                int tasks = Integer.parseInt(paren < 0 ? part : part.substring(0, paren));
                int times = paren < 0 ? 1 : Integer.parseInt(part.substring(paren + 2, part.length() - 1));
                for (int i = 0; i < times && perNode.size() <= nodeId; i++) {
                    perNode.add(tasks);
                }
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("SLURM_STEP_TASKS_PER_NODE='" + env.get("SLURM_STEP_TASKS_PER_NODE")
                        + "' is not Slurm's form (4 or 2(x3),1)");
            }
        }
        return nodeId < perNode.size() ? perNode.get(nodeId) : -1;
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
