package io.railcoll.launcher;

import io.railcoll.topology.Placement;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What to launch: which class ({@link RankApp} or any class with a {@code main}, see {@link EntryPoint}) with which
 * arguments and class path, on which placement and how many rails, with extra
 * environment for every rank (railcoll's {@code RAILCOLL_*} settings) and extra JVM options.
 *
 * @param jobTimeout the whole job is killed, and reported as failed, after this long
 */
public record JobSpec(Placement placement, int rails, String appClass, List<String> appArgs,
                      Map<String, String> environment, List<String> jvmOptions, Duration jobTimeout,
                      JobClassPath classPath) {
    public JobSpec {
        if (rails < 1) {
            throw new IllegalArgumentException("a job needs at least one rail");
        }
        appArgs = List.copyOf(appArgs);
        environment = Map.copyOf(environment);
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** A job of a class shipped with railcoll: the ranks' class path is railcoll's own. */
    public JobSpec(Placement placement, int rails, String appClass, List<String> appArgs,
                   Map<String, String> environment, List<String> jvmOptions, Duration jobTimeout) {
        this(placement, rails, appClass, appArgs, environment, jvmOptions, jobTimeout, JobClassPath.railcollOnly());
    }

    public JobSpec(Placement placement, int rails, String appClass, List<String> appArgs) {
        this(placement, rails, appClass, appArgs, Map.of(), List.of(), Duration.ofMinutes(30));
    }

    public JobSpec withEnvironment(Map<String, String> env) {
        return new JobSpec(placement, rails, appClass, appArgs, env, jvmOptions, jobTimeout, classPath);
    }

    public JobSpec withTimeout(Duration timeout) {
        return new JobSpec(placement, rails, appClass, appArgs, environment, jvmOptions, timeout, classPath);
    }
}
