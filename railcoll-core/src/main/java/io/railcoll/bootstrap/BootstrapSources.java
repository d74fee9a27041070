package io.railcoll.bootstrap;

import io.railcoll.settings.RailcollSettings;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Chooses and opens the {@link BootstrapSource} a process's environment calls for. In this order, the first that
 * applies wins:
 * <ol>
 *   <li>{@code railcoll}: {@code RAILCOLL_RANK} or {@code RAILCOLL_RENDEZVOUS} is set ({@code bin/railcoll run}, or a
 *       user who set them by hand: explicit settings win over anything a launcher offers);</li>
 *   <li>{@code pmix}: {@code PMIX_NAMESPACE} and {@code PMIX_RANK} (Open MPI's mpirun/prterun, srun --mpi=pmix);</li>
 *   <li>{@code pmi1}: {@code PMI_FD} or {@code PMI_PORT} (MPICH's Hydra mpiexec);</li>
 *   <li>{@code slurm}: {@code SLURM_PROCID}, {@code SLURM_JOB_ID}, {@code SLURM_STEP_ID} and
 *       {@code SLURM_STEP_NODELIST} (a task srun started without a PMI plugin);</li>
 *   <li>{@code torchrun}: {@code RANK}, {@code WORLD_SIZE}, {@code MASTER_ADDR}, {@code MASTER_PORT}.</li>
 * </ol>
 * {@code RAILCOLL_BOOTSTRAP=railcoll|pmix|pmi1|slurm|torchrun} forces one (a launcher that sets several families of
 * variables, or a test); {@code auto} or unset chooses.
 */
public final class BootstrapSources {
    public static final String VARIABLE = "RAILCOLL_BOOTSTRAP";
    /** The sources in the order they are tried. */
    public static final List<String> ORDER = List.of("railcoll", "pmix", "pmi1", "slurm", "torchrun");
    /** How long opening a PMI-1 connection may take. */
    private static final long PMI_OPEN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);

    private BootstrapSources() {
    }

    /** The name of the source {@code env} calls for, without opening it. */
    public static String choose(Map<String, String> env) {
        String forced = RailcollSettings.BOOTSTRAP.read(env);
        if (!forced.equals("auto")) {
            return forced;
        }
        if (present(env, "RAILCOLL_RANK") || present(env, "RAILCOLL_RENDEZVOUS")) {
            return "railcoll";
        }
        if (PmixStore.offered(env)) {
            return "pmix";
        }
        if (Pmi1Store.offered(env)) {
            return "pmi1";
        }
        if (SlurmEnvironment.offered(env)) {
            return "slurm";
        }
        if (TorchrunEnvironment.offered(env)) {
            return "torchrun";
        }
        throw new IllegalArgumentException("cannot tell who this process is in its job: no launcher's variables are set."
                + " Start ranks with bin/railcoll run, mpirun (PMIx), mpiexec.hydra (PMI-1), srun (with or without"
                + " --mpi=pmix), or set RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT (with RAILCOLL_SECRET_FILE or"
                + " RAILCOLL_SECRET); see docs/launching.md");
    }

    /** Opens the source {@code env} calls for; a launcher's key-value store is connected (and initialised) here. */
    public static BootstrapSource open(Map<String, String> env, PrintStream log) {
        String name = choose(env);
        return switch (name) {
            case "railcoll" -> railcoll(env, log);
            case "pmix" -> new KvsSource("pmix", PmixStore.open(env), JobIdentity.railsFromEnvironment(env));
            case "pmi1" -> {
                if (!Pmi1Store.offered(env)) {
                    throw new IllegalArgumentException(VARIABLE + "=pmi1 but neither PMI_FD nor PMI_PORT is set");
                }
                yield new KvsSource("pmi1", Pmi1Store.open(env, PMI_OPEN_TIMEOUT_NS), JobIdentity.railsFromEnvironment(env));
            }
            case "slurm" -> SlurmEnvironment.open(env, log);
            case "torchrun" -> TorchrunEnvironment.open(env, log);
            default -> throw new IllegalStateException("unknown source " + name);
        };
    }

    /** Where libpmix would be loaded from, for tools and tests that need to know whether PMIx can work here. */
    public static java.util.Optional<java.nio.file.Path> pmixLibrary(Map<String, String> env) {
        return PmixLibrary.find(env);
    }

    /** Wraps an identity built by hand (tests, embedding programs) as the {@code railcoll} source. */
    public static BootstrapSource of(JobIdentity id, PrintStream log) {
        return new RendezvousSource("railcoll", id, -1, -1, id.rendezvous(), "the caller", List.of(), log);
    }

    private static BootstrapSource railcoll(Map<String, String> env, PrintStream log) {
        JobIdentity id = JobIdentity.fromEnvironment(env);
        int localRank = firstPresentInt(env, "RAILCOLL_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
                "MPI_LOCALRANKID");
        int localSize = firstPresentInt(env, "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS");
        String origin = present(env, UserSecret.FILE_VARIABLE) ? UserSecret.FILE_VARIABLE + "="
                + env.get(UserSecret.FILE_VARIABLE).strip() : UserSecret.VARIABLE;
        return new RendezvousSource("railcoll", id, localRank, localSize, id.rendezvous(), origin,
                List.of("launcher: railcoll variables (RAILCOLL_RANK, RAILCOLL_RENDEZVOUS, ...)"), log);
    }

    private static int firstPresentInt(Map<String, String> env, String... names) {
        for (String n : names) {
            if (present(env, n)) {
                return JobIdentity.firstInt(env, n, 0, Integer.MAX_VALUE, n);
            }
        }
        return -1;
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
