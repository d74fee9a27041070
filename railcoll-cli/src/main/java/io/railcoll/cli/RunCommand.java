package io.railcoll.cli;

import io.railcoll.launcher.EntryPoint;
import io.railcoll.launcher.JobClassPath;
import io.railcoll.launcher.JobLauncher;
import io.railcoll.launcher.JobResult;
import io.railcoll.launcher.JobSpec;
import io.railcoll.launcher.NodeNetwork;
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

/**
 * {@code railcoll run}: launches a program on every rank of an emulated cluster, one JVM per rank. The program is any
 * class with a {@code main} or a {@code RankApp}, from railcoll's jars or the user's class path or jar
 * ({@link UserProgram}); it is found before any rank starts.
 */
@Command(name = "run", mixinStandardHelpOptions = true, defaultValueProvider = SettingDefaults.class,
        description = {"Run a program on every rank of an emulated cluster (one JVM per rank): any class with a "
                + "public static void main(String[]) (it opens its communicator with Railcoll.init()), or a "
                + "io.railcoll.launcher.RankApp.",
                "  bin/railcoll run --classpath app.jar:lib/* com.example.Main arg...",
                "  bin/railcoll run --jar app.jar arg...        (Main-Class from the manifest)",
                "Options after the class name are the program's."})
final class RunCommand implements Callable<Integer> {
    @Mixin
    ClusterOptions cluster = new ClusterOptions();

    @Mixin
    VectorApiOption vector = new VectorApiOption();

    @Option(names = "--job-timeout-s", description = "Kill the job after this many seconds (default ${DEFAULT-VALUE}).", defaultValue = "1800")
    long jobTimeoutS;

    @Option(names = "--jvm-option", description = "Extra JVM option for every rank, e.g. -Xmx1g; repeatable. "
            + "A class path given here (-cp X, --class-path=X, -Djava.class.path=X) joins --classpath.")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = {"--classpath", "--class-path", "-cp"}, paramLabel = "CP",
            description = "The program's class path (':'-separated, dir/* for every jar of dir), after railcoll's own "
                    + "jars on every rank; repeatable. Default: $CLASSPATH when set and no --jar is given.")
    List<String> classPath = new ArrayList<>();

    @Option(names = "--jar", paramLabel = "JAR", description = "The program's jar: its Main-Class runs (or --main-class), "
            + "its manifest Class-Path is followed, and every argument after the options goes to the program.")
    String jar;

    @Option(names = "--main-class", paramLabel = "CLASS", description = "With --jar: the class to run instead of the manifest's Main-Class.")
    String mainClass;

    @Parameters(index = "0..*", paramLabel = "MAIN_CLASS [ARGS]", description = "The class to run on every rank "
            + "(fully qualified; not with --jar), then its arguments.")
    List<String> positional = new ArrayList<>();

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        UserProgram program = UserProgram.resolve(classPath, jar, mainClass, jvmOptions, positional, System.getenv("CLASSPATH"));
        JobClassPath jobClassPath = program.classPath();
        // Checked here, before any JVM starts: a wrong name is one line, not a stack trace per rank.
        EntryPoint entry;
        try {
            entry = EntryPoint.check(program.mainClass(), jobClassPath);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "MAIN_CLASS: " + e.getMessage()
                    + "; accepted: a class with public static void main(String[]) or a RankApp");
        }
        JobSpec spec = new JobSpec(cluster.placement(), cluster.rails, program.mainClass(), program.args(),
                cluster.environment(), vector.jvmOptions(program.jvmOptions()), Duration.ofSeconds(jobTimeoutS), jobClassPath);
        try (NodeNetwork network = cluster.network()) {
            System.err.println("railcoll: " + spec.placement().size() + " ranks on " + spec.placement().describe()
                    + " nodes, " + spec.rails() + " rails; " + network.describe() + "; "
                    + (entry == EntryPoint.MAIN ? program.mainClass() + ".main" : "RankApp " + program.mainClass()));
            JobResult result = new JobLauncher(System.out, System.err).run(spec, network);
            if (!result.succeeded()) {
                System.err.println("railcoll: job failed" + (result.failedRank() >= 0 ? " on rank " + result.failedRank() : "")
                        + ": " + result.failure());
            }
            return result.exitCode();
        }
    }
}
