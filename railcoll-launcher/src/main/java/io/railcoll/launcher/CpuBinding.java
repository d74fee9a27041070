package io.railcoll.launcher;

import io.railcoll.settings.RailcollSettings;

import io.railcoll.memory.NodeCpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which processor each rank process runs on, set by {@code RAILCOLL_BIND}:
 * <ul>
 *   <li>{@code auto} (the default): round-robin over the processors this launcher may use while the job has at most
 *       {@value #AUTO_RANKS_PER_CPU} ranks per processor, none beyond. With a processor per rank that is Open MPI's
 *       default (bind to core), and the peer we measure against runs so: two unbound ranks of one node were often
 *       put on the same processor by the scheduler (a 1 MiB node all-gather then took 634 us instead of 112 us, a
 *       64 KiB one 45 us instead of 14 us), bound they never are. Up to 4 ranks per processor binding also pays:
 *       ranks sharing a processor hand it to each other when they yield instead of waiting for the scheduler to
 *       migrate one (4 ranks on 2 processors, unbound against bound in one session: 1 B node broadcast 9.1 us
 *       against 3.1 us, 1 MiB all-gather 959 us against 478 us, 1 B gather 6.2 us against 4.2 us; 8 ranks: 1 B
 *       broadcast 26 us against 5.3 us, 1 B all-gather 19 us against 12 us). With 8 ranks per processor the
 *       measurements went both ways (gather worse, broadcast better), and a rank bound there cannot leave a
 *       processor that other work has taken;</li>
 *   <li>{@code core}: round-robin over the processors whatever the number of ranks;</li>
 *   <li>{@code none}: the scheduler places the ranks.</li>
 * </ul>
 * A rank is bound with {@code taskset} (util-linux) before its JVM starts, so every thread of it stays on that
 * processor, as {@code mpirun --bind-to core} binds a whole process. Bound ranks get {@link NodeCpus#VARIABLE}, the
 * processor count of the host, since their own affinity shows one processor and they decide from the host's count
 * whether they may spin while they wait. All ranks of a job run on this host (the emulated nodes share it).
 */
final class CpuBinding {
    static final String VARIABLE = "RAILCOLL_BIND";
    /** {@code auto} binds up to this many ranks per processor. */
    static final int AUTO_RANKS_PER_CPU = 4;

    enum Mode { AUTO, CORE, NONE }

    private final List<Integer> cpus;
    private final boolean bind;
    private final String taskset;

    private CpuBinding(List<Integer> cpus, boolean bind, String taskset) {
        this.cpus = cpus;
        this.bind = bind;
        this.taskset = taskset;
    }

    /**
     * The binding for a job of {@code ranks} on the processors {@code cpus} this launcher may use.
     *
     * @param taskset the taskset program, or null where there is none (then nothing is bound)
     */
    static CpuBinding of(Mode mode, int ranks, List<Integer> cpus, String taskset) {
        boolean bind = taskset != null && !cpus.isEmpty() && switch (mode) {
            case AUTO -> ranks <= AUTO_RANKS_PER_CPU * cpus.size();
            case CORE -> true;
            case NONE -> false;
        };
        return new CpuBinding(List.copyOf(cpus), bind, taskset);
    }

    /** The binding {@code RAILCOLL_BIND} in {@code jobEnvironment} (else this process's environment) asks for. */
    static CpuBinding forJob(Map<String, String> jobEnvironment, int ranks) {
        String setting = jobEnvironment.getOrDefault(VARIABLE, System.getenv(VARIABLE));
        return of(parse(setting), ranks, allowedCpus(), findTaskset());
    }

    static Mode parse(String setting) {
        if (setting == null || setting.isBlank()) {
            return Mode.AUTO;
        }
        return Mode.valueOf(RailcollSettings.BIND.parse(setting).toUpperCase(Locale.ROOT));
    }

    boolean binds() {
        return bind;
    }

    /** The processor of {@code rank}, or -1 when it is not bound. */
    int cpuOf(int rank) {
        return bind ? cpus.get(rank % cpus.size()) : -1;
    }

    /** What goes before the rank's java command. */
    List<String> commandPrefix(int rank) {
        return bind ? List.of(taskset, "-c", Integer.toString(cpuOf(rank))) : List.of();
    }

    /** What a bound rank's environment gets. */
    void addEnvironment(Map<String, String> env) {
        if (bind) {
            env.put(NodeCpus.VARIABLE, Integer.toString(cpus.size()));
        }
    }

    /** The processors this process may run on ({@code Cpus_allowed_list} of /proc/self/status). */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring(line.indexOf(':') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unreadable list: fall back to the count alone
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    /** Parses a kernel CPU list such as {@code 0-3,8,10-11}. */
    static List<Integer> parseCpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.strip().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).strip());
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).strip());
            if (to < from) {
                throw new IllegalArgumentException("bad CPU range '" + part + "' in '" + list.strip() + "'");
            }
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    private static String findTaskset() {
        String path = System.getenv("PATH");
        List<String> dirs = new ArrayList<>(List.of("/usr/bin", "/bin"));
        if (path != null) {
            dirs.addAll(0, List.of(path.split(":")));
        }
        for (String dir : dirs) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "taskset");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
