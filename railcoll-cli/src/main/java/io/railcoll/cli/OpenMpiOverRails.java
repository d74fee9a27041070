package io.railcoll.cli;

import io.railcoll.bench.peer.OpenMpiEnvironment;
import io.railcoll.bench.peer.OpenMpiPeer;
import io.railcoll.bench.peer.PeerOutput;
import io.railcoll.bench.peer.PeerResults;
import io.railcoll.bench.peer.PeerRun;
import io.railcoll.bench.peer.PeerWhereCheck;
import io.railcoll.bench.report.BenchResult;
import io.railcoll.bench.report.Series;
import io.railcoll.launcher.NamespaceNetwork;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Open MPI's TCP transport over the same two rails as railcoll, in the same run: {@code mpirun} starts inside
 * node 0's namespace, and its remote agent (instead of ssh) is a small script that starts the daemon of the
 * fake host {@code rcnode1} inside node 1's namespace with {@code ip netns exec}. The daemons talk to mpirun over
 * rail 0 ({@code oob_tcp_if_include rail0}); the ranks' data goes over both rails ({@code btl tcp,self},
 * {@code btl_tcp_if_include rail0,rail1}: Open MPI's TCP BTL opens one module per interface and stripes large
 * messages over them), with {@code pml ob1} named so that no other pml (ucx, cm) can bypass the btl list. Runs
 * {@code peer_bench} (one collective call timed alone, OSU style); for the point-to-point modes with 2 ranks:
 * {@code MPI_Bcast} is one message, {@code MPI_Allgather} one message each way. {@code mpirun} is the one
 * {@link OpenMpiPeer#locate} finds, as for the one-host peer, run without the environment's MCA variables
 * ({@link OpenMpiEnvironment}). Every rank reports its network namespace, and a run whose ranks did not run in their
 * nodes' namespaces fails ({@link PeerWhereCheck}) instead of reporting figures that never touched a rail.
 *
 * <p>One run at a time; the script is a temporary file removed afterwards. Processes are killed at the deadline.
 */
final class OpenMpiOverRails {
    private static final String FAKE_HOST_PREFIX = "rcnode";

    private OpenMpiOverRails() {
    }

    /** Runs {@code mode}'s collective over the testbed's rails; returns one result per size with its bandwidth. */
    static List<BenchResult> run(String mode, NamespaceNetwork net, Placement placement, List<Long> sizes, int samples,
                                 boolean check) throws IOException, InterruptedException {
        Collective collective = mode.equals("bibandwidth") ? Collective.ALLGATHER : Collective.BROADCAST;
        PeerRun run = PeerRun.builder(collective, placement, sizes).rails(2).samples(samples).check(check)
                .counts(20, 200, 3, 20).largeFromBytes(65536).build();
        List<BenchResult> results = new ArrayList<>();
        for (BenchResult r : runCollective(run, net, "tcp btl, 2 rails", Route.RAILS).results()) {
            double bytes = mode.equals("bibandwidth") ? 2.0 * r.sizeBytes() : r.sizeBytes();
            results.add(r.withBandwidthMbitS(r.latencyUsMedian() == 0 ? 0 : bytes * 8 / r.latencyUsMedian()));
        }
        return results;
    }

    /** Where the peer's ranks run. */
    enum Route {
        /** As railcoll's: node n's ranks in node n's namespace, data over the rails. */
        RAILS,
        /**
         * A control that must fail rail accounting: every rank in node 0's namespace, so their bytes go over that
         * namespace's loopback while the results claim the placement's nodes.
         */
        LOOPBACK
    }

    /**
     * Runs {@code run} (its collective, sizes and counts) through Open MPI on the testbed with the same placement as
     * railcoll: node 0's ranks beside mpirun, node n's on fake host {@code rcnode<n>} started in node n's namespace by
     * the agent script, data over {@code run.rails()} rails ({@link Route#LOOPBACK}: every rank beside mpirun). Every
     * rank counts the rail interfaces' bytes around each size. Returns one result per size, labelled
     * {@code engineLabel}; no results when Open MPI is not installed (the lookup's message says so).
     */
    static PeerResults runCollective(PeerRun run, NamespaceNetwork net, String engineLabel, Route route)
            throws IOException, InterruptedException {
        Placement placement = run.placement();
        int rails = run.rails();
        OpenMpiPeer.Lookup lookup = OpenMpiPeer.locate(OpenMpiPeer.defaultCacheDir());
        System.out.println(lookup.message());
        if (lookup.peer().isEmpty()) {
            return new PeerResults(OpenMpiPeer.NAME, lookup.message(), List.of(), List.of(), List.of(lookup.message()));
        }
        OpenMpiPeer peer = lookup.peer().get();
        Path program = peer.build();
        // The one lookup: the same mpirun (PATH, Open MPI's own) as the one-host peer, never a fixed path that can
        // be another installation than the mpicc that built the program.
        Path mpirun = peer.mpirun();
        Path agent = Files.createTempFile("railcoll-mpi-agent-", ".sh",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path out = Files.createTempFile("railcoll-mpi-", ".out");
        Path err = Files.createTempFile("railcoll-mpi-", ".err");
        try {
            // ssh-like: AGENT HOST COMMAND...; the command is one shell line, as ssh would hand it to a shell.
            StringBuilder script = new StringBuilder("#!/bin/sh\nhost=\"$1\"; shift\ncase \"$host\" in\n");
            StringBuilder hosts = new StringBuilder("localhost:" + (route == Route.LOOPBACK ? placement.size()
                    : placement.ranksOnNode(0)));
            for (int n = 1; n < placement.nodeCount() && route == Route.RAILS; n++) {
                // The namespaces share the host name, and Open MPI tells nodes apart by it (to pick shared memory
                // within a node): each emulated node's daemon gets a UTS namespace with its own name. Written through
                // /proc and checked, not with hostname(1): an image without that command (the 16-processor machine
                // of 2026-11-27) went on under the shared name, and all 16 ranks then talked through shared memory,
                // 0 bytes on the rails, while the figures claimed 4 nodes.
                String name = FAKE_HOST_PREFIX + n;
                script.append("  ").append(name).append(") exec ")
                        .append(String.join(" ", net.commandPrefix(n))).append(" unshare --uts /bin/sh -c \"echo ")
                        .append(name).append(" > /proc/sys/kernel/hostname && test \\\"\\$(cat /proc/sys/kernel/hostname)\\\" = ")
                        .append(name).append(" || { echo 'railcoll agent: could not name host ").append(name)
                        .append("' >&2; exit 1; }; $*\" ;;\n");
                hosts.append(',').append(FAKE_HOST_PREFIX).append(n).append(':').append(placement.ranksOnNode(n));
            }
            script.append("  *) echo \"railcoll agent: unknown host $host\" >&2; exit 1 ;;\nesac\n");
            Files.writeString(agent, script.toString());
            List<String> railNames = new ArrayList<>();
            for (int r = 0; r < rails; r++) {
                railNames.add("rail" + r);
            }
            List<String> cmd = new ArrayList<>(net.commandPrefix(0));
            cmd.addAll(List.of(mpirun.toString(), "--allow-run-as-root", "--oversubscribe",
                    "-np", Integer.toString(placement.size()), "--host", hosts.toString(), "--map-by", "slot",
                    // The rsh launcher, named: only it calls the agent. Another (plm isolated, which the 16-processor
                    // machine's image chose through OMPI_MCA_plm in the environment, decision 0198) starts no remote
                    // daemon and maps every rank onto this node without an error.
                    "--mca", "plm", "rsh", "--mca", "plm_rsh_agent", agent.toString(),
                    // Never resolve the fake host names: Open MPI takes a host whose name resolves to one of this
                    // machine's addresses for this node (orte_ifislocal) and starts its ranks here, beside node 0's,
                    // where they share memory and the rails carry nothing.
                    "--do-not-resolve",
                    // ob1 named: only then is the btl list below what carries the bytes. Another pml (ucx, cm with an
                    // mtl) ignores every btl setting and picks its own transports and interfaces.
                    "--mca", "pml", "ob1",
                    "--mca", "btl", "tcp,vader,self", "--mca", "btl_tcp_if_include", String.join(",", railNames),
                    "--mca", "oob_tcp_if_include", "rail0",
                    // This machine runs far more processes than cores: waiting ranks yield, as railcoll's do.
                    "--mca", "mpi_yield_when_idle", "1",
                    program.toString()));
            cmd.addAll(run.toBuilder().railInterfaces(railNames).build().programArgs());
            ProcessBuilder builder = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            // Open MPI's defaults and the settings above, whatever the environment sets (OpenMpiEnvironment).
            OpenMpiEnvironment.scrub(builder.environment());
            Process p = builder.start();
            if (!p.waitFor(20, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException("Open MPI over the rails did not finish within 20 minutes");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            PeerOutput parsed = PeerOutput.parse(stdout);
            if (p.exitValue() != 0 || !parsed.complete() || !parsed.failedChecks().isEmpty()) {
                throw new IOException("Open MPI over the rails failed (exit " + p.exitValue() + "): " + String.join(" ", cmd)
                        + "\n" + tail(stdout) + "\n" + tail(Files.readString(err, StandardCharsets.UTF_8)));
            }
            List<String> misplaced = route == Route.RAILS ? PeerWhereCheck.problems(placement, parsed.where()) : List.of();
            if (!misplaced.isEmpty()) {
                throw new IOException("Open MPI's ranks did not run on the testbed's nodes (" + placement.describe()
                        + "), so its figures would not be the rails': " + String.join("; ", misplaced)
                        + ". Ranks reported: " + parsed.where() + ". Command: " + String.join(" ", cmd) + "\n"
                        + tail(Files.readString(err, StandardCharsets.UTF_8)));
            }
            return new PeerResults(OpenMpiPeer.NAME, peer.identity(),
                    parsed.results(Series.of(run.collective(), OpenMpiPeer.NAME, placement, rails, engineLabel)),
                    parsed.railLines(), List.of());
        } finally {
            Files.deleteIfExists(agent);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String tail(String s) {
        return s.length() <= 2000 ? s : s.substring(s.length() - 2000);
    }
}
