package io.railcoll.cli;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NodeNetwork;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code railcoll run}: launches a RankApp on every rank of an emulated cluster. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a RankApp class on every rank of an emulated cluster (one JVM per rank).")
final class RunCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--job-timeout-s", description = "Kill the job after this many seconds (default ${DEFAULT-VALUE}).", defaultValue = "1800")
    long jobTimeoutS;

    @Option(names = "--jvm-option", description = "Extra JVM option for every rank; repeatable.")
    List<String> jvmOptions = new ArrayList<>();

    @Parameters(index = "0", description = "Fully qualified class implementing io.railcoll.launcher.RankApp (on the classpath).")
    String appClass;

    @Parameters(index = "1..*", description = "Arguments passed to the app on every rank.")
    List<String> appArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        JobSpec spec = new JobSpec(cluster.placement(), cluster.rails, appClass, appArgs, cluster.environment(),
                jvmOptions, Duration.ofSeconds(jobTimeoutS));
        try (NodeNetwork network = cluster.network()) {
            System.err.println("railcoll: " + spec.placement().size() + " ranks on " + spec.placement().describe()
                    + " nodes, " + spec.rails() + " rails; " + network.describe());
            JobResult result = new JobLauncher(System.out, System.err).run(spec, network);
            if (!result.succeeded()) {
                System.err.println("railcoll: job failed" + (result.failedRank() >= 0 ? " on rank " + result.failedRank() : "")
                        + ": " + result.failure());
            }
            return result.exitCode();
        }
    }
}
