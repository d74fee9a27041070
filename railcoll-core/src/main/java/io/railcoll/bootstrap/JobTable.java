package io.railcoll.bootstrap;

import io.railcoll.memory.NodeCpus;
import io.railcoll.topology.Placement;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rendezvous result every rank receives: all ranks' records, and the placement derived from their node
 * keys (nodes numbered in the order of their lowest rank). Immutable.
 */
public record JobTable(List<RankRecord> ranks, Placement placement) {

    public JobTable {
        ranks = List.copyOf(ranks);
    }

    /** Orders records by rank and numbers nodes by first appearance. */
    public static JobTable of(RankRecord[] byRank) {
        Map<String, Integer> nodeIds = new HashMap<>();
        int[] nodes = new int[byRank.length];
        for (int r = 0; r < byRank.length; r++) {
            nodes[r] = nodeIds.computeIfAbsent(byRank[r].nodeKey(), k -> nodeIds.size());
        }
        return new JobTable(List.of(byRank), Placement.ofNodeIds(nodes));
    }

    public int size() {
        return ranks.size();
    }

    public RankRecord rank(int r) {
        return ranks.get(r);
    }

    /**
     * Whether no rank shares a processor (decision 0196): every rank saw at least as many processors as ranks share
     * them, its node-mates or, on a cluster emulated on one host, every rank of that host ({@link
     * NodeCpus#outnumbered(int, int, int)}, the test a waiting rank's spinning uses). The AND over every rank of the
     * table, which every rank holds alike, so every rank gets the same answer; a rank whose processors are not known
     * (0) makes it false.
     */
    public boolean everyRankHasAProcessor() {
        for (int r = 0; r < ranks.size(); r++) {
            RankRecord rec = ranks.get(r);
            if (rec.processors() == 0 || NodeCpus.outnumbered(placement.localSizeOf(r), rec.processors(),
                    rec.hostRanks())) {
                return false;
            }
        }
        return true;
    }

    public int rails() {
        return ranks.getFirst().railEndpoints().size();
    }

    void write(DataOutputStream out) throws IOException {
        out.writeInt(ranks.size());
        for (RankRecord r : ranks) {
            r.write(out);
        }
    }

    static JobTable read(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n <= 0 || n > 1 << 20) {
            throw new IOException("implausible job size " + n);
        }
        List<RankRecord> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(RankRecord.read(in));
        }
        return of(list.toArray(RankRecord[]::new));
    }
}
