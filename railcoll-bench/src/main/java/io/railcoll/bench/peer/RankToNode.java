package io.railcoll.bench.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Filters rail-accounting lines by where each rank really ran (a launcher places ranks in its own order): only the
 * lines of the lowest rank of each node that held ranks are kept, so every real node is counted once and a node that
 * held no rank is not counted at all (its bytes read as zero). The ledger then maps that rank to a node by the
 * placement, which agrees when ranks are spread in equal blocks, as MPJ Express and railcoll both do. Stateless.
 */
final class RankToNode {
    private RankToNode() {
    }

    static List<String> remap(List<String> railLines, Map<Integer, Integer> nodeOfRank) {
        if (nodeOfRank.isEmpty()) {
            return railLines;
        }
        Map<Integer, Integer> firstRankOfNode = new TreeMap<>();
        nodeOfRank.forEach((rank, node) -> firstRankOfNode.merge(node, rank, Math::min));
        List<String> out = new ArrayList<>();
        for (String line : railLines) {
            String[] f = line.split(",", -1);
            if (f.length != 9) {
                continue;
            }
            int rank = Integer.parseInt(f[3]);
            Integer node = nodeOfRank.get(rank);
            if (node == null || firstRankOfNode.get(node) != rank) {
                continue;
            }
            out.add(line);
        }
        return out;
    }
}
