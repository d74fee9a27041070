package io.railcoll.cli;

import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NodeNetwork;
import io.railcoll.launcher.RankApp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code railcoll run}: launches a RankApp on every rank of an emulated cluster. */
@Command(name = "run", mixinStandardHelpOptions = true, defaultValueProvider = SettingDefaults.class,
        description = "Run a RankApp class on every rank of an emulated cluster (one JVM per rank).")
final class RunCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Option(names = "--job-timeout-s", description = "Kill the job after this many seconds (default ${DEFAULT-VALUE}).", defaultValue = "1800")
    long jobTimeoutS;

    @Option(names = "--jvm-option", description = "Extra JVM option for every rank; repeatable.")
    List<String> jvmOptions = new ArrayList<>();

    @Parameters(index = "0", paramLabel = "APP_CLASS", description = "Fully qualified class implementing io.railcoll.launcher.RankApp (on the classpath).")
    String appClass;

    @Parameters(index = "1..*", description = "Arguments passed to the app on every rank.")
    List<String> appArgs = new ArrayList<>();

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        checkAppClass();
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

    /**
     * The ranks run the app from this process's class path, so what cannot be loaded here cannot run there: refuse
     * it with one line before any rank starts, instead of a stack trace from each of them.
     */
    private void checkAppClass() {
        Class<?> app;
        try {
            app = Class.forName(appClass, false, RunCommand.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ParameterException(command.commandLine(), "APP_CLASS: no class " + appClass
                    + " on the class path; accepted: a class implementing " + RankApp.class.getName());
        }
        if (!RankApp.class.isAssignableFrom(app)) {
            throw new ParameterException(command.commandLine(), "APP_CLASS: " + appClass + " does not implement "
                    + RankApp.class.getName() + "; accepted: a class implementing it");
        }
    }
}
