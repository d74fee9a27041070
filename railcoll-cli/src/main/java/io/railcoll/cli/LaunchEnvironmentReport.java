package io.railcoll.cli;

import io.railcoll.Railcoll;
import io.railcoll.bootstrap.BootstrapSource;
import io.railcoll.bootstrap.BootstrapSources;
import io.railcoll.bootstrap.RankIdentity;

import java.io.PrintStream;
import java.net.InetAddress;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code railcoll info --env}: which bootstrap source this environment calls for and what it says (rank, size,
 * local rank, node, job id, rails, where the secret comes from). Opens the source as a rank would (a PMIx or PMI-1
 * client initialises and finalizes) but exchanges nothing, so it can run alone or as every rank of a launcher.
 */
final class LaunchEnvironmentReport {
    private LaunchEnvironmentReport() {
    }

    /** Prints the report; 0 when a rank could start here, 1 with the reason on {@code err} when not. */
    static int print(Map<String, String> env, PrintStream out, PrintStream err) {
        String name;
        try {
            name = BootstrapSources.choose(env);
        } catch (IllegalArgumentException e) {
            out.println("bootstrap: none");
            err.println("railcoll: " + e.getMessage());
            return 1;
        }
        try (BootstrapSource source = BootstrapSources.open(env, err)) {
            RankIdentity id = source.identity();
            StringBuilder b = new StringBuilder();
            b.append("bootstrap: ").append(name).append('\n');
            b.append("rank: ").append(id.rank()).append('\n');
            b.append("size: ").append(id.size()).append('\n');
            b.append("local rank: ").append(id.localRank() < 0 ? "not given by the launcher" : id.localRank()
                    + (id.localSize() < 0 ? "" : " of " + id.localSize())).append('\n');
            b.append("node: ").append(id.node()).append('\n');
            b.append("job id: ").append(id.jobId()).append('\n');
            b.append("rails: ").append(Railcoll.railAddresses(source).stream().map(InetAddress::getHostAddress)
                    .collect(Collectors.joining(","))).append(source.railAddresses().isEmpty()
                    ? " (default; RAILCOLL_RAILS to choose)" : " (RAILCOLL_RAILS)").append('\n');
            b.append("secret: ").append(source.secretOrigin()).append('\n');
            for (String line : source.details()) {
                b.append(line).append('\n');
            }
            // One write, so that the reports of ranks started together by a launcher do not interleave line by line.
            out.print(b);
            out.flush();
            return 0;
        } catch (RuntimeException e) {
            out.println("bootstrap: " + name);
            err.println("railcoll: " + e.getMessage());
            return 1;
        }
    }
}
