package io.railcoll.systemtest.launch;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A one-node Slurm cluster on this machine for a test: slurmctld and slurmd of Debian's slurm-wlm (22.05), run in
 * the foreground from a configuration in a temporary directory (state, spool, logs and pid files there too, fresh
 * ports), with {@code auth/none} and {@code cred/none} so no munge key is needed, process tracking without cgroups,
 * and the node's CPU count raised so that more tasks than cores fit ({@code SlurmdParameters=config_overrides}).
 * {@link #start} returns null with the reason in {@link #whyNot} when this machine cannot run it; {@link #close}
 * cancels what still runs, stops both daemons and removes the directory.
 */
final class LocalSlurm implements AutoCloseable {
    private static final String PARTITION = "railcoll";
    private final Path dir;
    private final Path conf;
    private final Process controller;
    private final Process daemon;

    private LocalSlurm(Path dir, Path conf, Process controller, Process daemon) {
        this.dir = dir;
        this.conf = conf;
        this.controller = controller;
        this.daemon = daemon;
    }

    /** Why the last {@link #start} returned null. */
    static String whyNot = "";

    static LocalSlurm start() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            whyNot = "slurmd must run as root to start tasks; run the tests as root";
            return null;
        }
        for (String program : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd")) {
            if (!Files.isExecutable(Path.of(program))) {
                whyNot = program + " is not installed (apt-get install slurmctld slurmd)";
                return null;
            }
        }
        // srun --version fails without a configuration, so look for the program itself.
        if (Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
                .noneMatch(d -> Files.isExecutable(Path.of(d, "srun")))) {
            whyNot = "srun is not on the PATH (apt-get install slurm-client)";
            return null;
        }
        Path dir = Files.createTempDirectory("railcoll-slurm");
        for (String sub : List.of("state", "spool", "log")) {
            Files.createDirectories(dir.resolve(sub));
        }
        String host = InetAddress.getLocalHost().getHostName().split("\\.")[0];
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(dir.resolve("plugstack.conf"), "", StandardCharsets.UTF_8);
        Files.writeString(conf, String.join("\n",
                "ClusterName=railcolltest",
                "SlurmctldHost=" + host + "(127.0.0.1)",
                "AuthType=auth/none",
                "CredType=cred/none",
                "MpiDefault=none",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SwitchType=switch/none",
                "ReturnToService=2",
                "SlurmUser=root",
                "SlurmdUser=root",
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd.pid"),
                "SlurmdSpoolDir=" + dir.resolve("spool"),
                "StateSaveLocation=" + dir.resolve("state"),
                "SlurmctldLogFile=" + dir.resolve("log/slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("log/slurmd.log"),
                "PlugStackConfig=" + dir.resolve("plugstack.conf"),
                "SchedulerType=sched/builtin",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "JobAcctGatherType=jobacct_gather/none",
                "AccountingStorageType=accounting_storage/none",
                "SlurmdParameters=config_overrides",
                "NodeName=" + host + " NodeAddr=127.0.0.1 CPUs=16 State=UNKNOWN",
                "PartitionName=" + PARTITION + " Nodes=" + host + " Default=YES MaxTime=INFINITE State=UP"
                        + " OverSubscribe=FORCE:16",
                ""), StandardCharsets.UTF_8);
        Process controller = daemon(dir, "slurmctld", List.of("/usr/sbin/slurmctld", "-D", "-f", conf.toString()));
        Process daemon = daemon(dir, "slurmd", List.of("/usr/sbin/slurmd", "-D", "-f", conf.toString(), "-N", host));
        LocalSlurm slurm = new LocalSlurm(dir, conf, controller, daemon);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!controller.isAlive() || !daemon.isAlive()) {
                break;
            }
            Launch.Result r = Launch.run(List.of("sinfo", "-h", "-o", "%t"), slurm.environment(), 30);
            if (r.exitCode() == 0 && r.output().strip().equals("idle")) {
                return slurm;
            }
            Thread.sleep(500);
        }
        whyNot = "slurmctld and slurmd did not bring node " + host + " to idle within 60 s (controller "
                + (controller.isAlive() ? "running" : "exited") + ", slurmd " + (daemon.isAlive() ? "running" : "exited")
                + "); slurmd log:\n" + tail(dir.resolve("slurmd.out")) + "\nslurmctld log:\n" + tail(dir.resolve("slurmctld.out"));
        slurm.close();
        return null;
    }

    private static Process daemon(Path dir, String name, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile());
        Launch.cleanEnvironment(pb.environment());
        return pb.start();
    }

    /** What a client (srun, sinfo) needs in its environment to reach this cluster. */
    Map<String, String> environment() {
        return Map.of("SLURM_CONF", conf.toString());
    }

    /** The MPI plugins srun offers here ({@code srun --mpi=list}). */
    String mpiPlugins() throws IOException, InterruptedException {
        return Launch.run(List.of("srun", "--mpi=list"), environment(), 30).output();
    }

    @Override
    public void close() throws IOException {
        try {
            if (controller.isAlive()) {
                Launch.run(List.of("scancel", "--partition=" + PARTITION), environment(), 30);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline
                        && !Launch.run(List.of("squeue", "-h"), environment(), 30).output().isBlank()) {
                    Thread.sleep(250);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (Process p : List.of(daemon, controller)) {
                p.destroy();
                try {
                    if (!p.waitFor(15, TimeUnit.SECONDS)) {
                        Launch.killTree(p.toHandle());
                        p.waitFor(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Launch.killTree(p.toHandle());
                    Thread.currentThread().interrupt();
                }
            }
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path p) throws IOException {
        if (!Files.exists(p)) {
            return "(none)";
        }
        List<String> lines = Files.readAllLines(p);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
