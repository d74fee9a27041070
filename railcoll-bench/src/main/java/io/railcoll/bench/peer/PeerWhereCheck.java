package io.railcoll.bench.peer;

import io.railcoll.topology.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether a testbed peer's ranks ran where the placement puts them: every emulated node's ranks in one network
 * namespace, and no two nodes in the same one. Open MPI does not fail when it starts ranks elsewhere than asked (a
 * launcher that starts no remote daemon, such as {@code plm isolated}, maps every rank onto mpirun's node); its
 * figures would then claim the placement's nodes while the bytes never touch a rail. Stateless.
 */
public final class PeerWhereCheck {
    private PeerWhereCheck() {
    }

    /** What is wrong with {@code where} (peer_bench's where records) for {@code placement}; empty when nothing is. */
    public static List<String> problems(Placement placement, List<PeerOutput.Where> where) {
        List<String> problems = new ArrayList<>();
        Map<Integer, PeerOutput.Where> byRank = new TreeMap<>();
        for (PeerOutput.Where w : where) {
            if (w.rank() < 0 || w.rank() >= placement.size() || byRank.put(w.rank(), w) != null) {
                problems.add("rank " + w.rank() + " reported where it ran twice or is not a rank of " + placement.describe());
            }
        }
        List<Integer> missing = new ArrayList<>();
        Map<Integer, Set<String>> namespacesOfNode = new TreeMap<>();
        Map<String, Set<Integer>> nodesOfNamespace = new TreeMap<>();
        Map<String, String> hostOfNamespace = new TreeMap<>();
        for (int rank = 0; rank < placement.size(); rank++) {
            PeerOutput.Where w = byRank.get(rank);
            if (w == null) {
                missing.add(rank);
                continue;
            }
            int node = placement.nodeOf(rank);
            namespacesOfNode.computeIfAbsent(node, k -> new TreeSet<>()).add(w.netns());
            nodesOfNamespace.computeIfAbsent(w.netns(), k -> new TreeSet<>()).add(node);
            hostOfNamespace.putIfAbsent(w.netns(), w.host());
        }
        if (!missing.isEmpty()) {
            problems.add("ranks " + missing + " did not report where they ran");
        }
        namespacesOfNode.forEach((node, namespaces) -> {
            if (namespaces.size() > 1) {
                problems.add("node " + node + "'s ranks ran in " + namespaces.size() + " network namespaces " + namespaces);
            }
        });
        nodesOfNamespace.forEach((netns, nodes) -> {
            if (nodes.size() > 1) {
                problems.add("the ranks of nodes " + nodes + " all ran in one network namespace, " + netns + " (host "
                        + hostOfNamespace.get(netns) + "): Open MPI did not start those nodes' daemons in their"
                        + " namespaces, so their bytes went through shared memory or loopback, never a rail");
            }
        });
        return problems;
    }
}
