package io.railcoll.bench.peer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The mpirun command line for a peer run, and why each setting is there:
 * <ul>
 *   <li>{@code --allow-run-as-root}: the emulated cluster (network namespaces) runs as root, and Open MPI
 *       refuses root without it;</li>
 *   <li>{@code --oversubscribe}: the default job has more ranks than this machine has cores, and Open MPI
 *       refuses to start more ranks than slots without it;</li>
 *   <li>{@code --mca mpi_yield_when_idle 1}, only when ranks outnumber cores: a waiting rank then yields
 *       its core instead of spinning on it, so the rank it waits for can run. Open MPI's best setting
 *       there; with ranks &lt;= cores, spinning is faster and the flag is left out.</li>
 *   <li>{@code --mca plm isolated}, unless the extra arguments choose a launcher ({@code plm} or {@code plm_*}): every
 *       rank runs on this host, and the isolated launcher starts them without looking for ssh or rsh. The default
 *       (rsh) refuses to start at all where neither exists ("plm_rsh_agent: ssh : rsh ... could not be found"), as
 *       on the 16-processor machine once its environment's {@code OMPI_MCA_plm=isolated} is ignored (decision
 *       0198).</li>
 * </ul>
 * Extra arguments (a launcher agent, MCA settings) come after these and before the program.
 */
final class MpirunCommand {
    private MpirunCommand() {
    }

    static List<String> build(Path mpirun, Path program, PeerRun run, int cores) {
        List<String> cmd = new ArrayList<>(List.of(mpirun.toString(), "--allow-run-as-root", "--oversubscribe",
                "-np", Integer.toString(run.ranks())));
        if (run.ranks() > cores) {
            cmd.addAll(List.of("--mca", "mpi_yield_when_idle", "1"));
        }
        boolean launcherChosen = run.extraMpirunArgs().stream().anyMatch(a -> a.equals("plm") || a.startsWith("plm_"));
        if (!launcherChosen) {
            cmd.addAll(List.of("--mca", "plm", "isolated"));
        }
        cmd.addAll(run.extraMpirunArgs());
        cmd.add(program.toString());
        cmd.addAll(run.programArgs());
        return cmd;
    }
}
