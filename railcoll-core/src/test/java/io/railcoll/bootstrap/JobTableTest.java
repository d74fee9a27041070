package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether every rank of a job has a processor of its own (decision 0196), judged from the records every rank holds:
 * the AND over every rank of its node's (or, on an emulated cluster, its host's) rank count against the processors it
 * saw.
 */
class JobTableTest {
    /** A table of ranks on the given nodes, rank r having seen {@code processors[r]} and {@code hostRanks[r]}. */
    private static JobTable table(String[] nodes, int[] processors, int[] hostRanks) {
        RankRecord[] records = new RankRecord[nodes.length];
        for (int r = 0; r < nodes.length; r++) {
            records[r] = new RankRecord(r, nodes.length, 100 + r, nodes[r],
                    List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000 + r)), processors[r],
                    hostRanks[r]);
        }
        return JobTable.of(records);
    }

    private static String[] nodes(int count, int perNode) {
        String[] n = new String[count * perNode];
        for (int r = 0; r < n.length; r++) {
            n[r] = "node" + r / perNode;
        }
        return n;
    }

    private static int[] each(int ranks, int value) {
        int[] a = new int[ranks];
        java.util.Arrays.fill(a, value);
        return a;
    }

    @Test
    void oneNodeHasAProcessorPerRankWhenItsRanksDoNotOutnumberThem() {
        assertTrue(table(nodes(1, 16), each(16, 16), each(16, 0)).everyRankHasAProcessor(), "1x16 on 16");
        assertTrue(table(nodes(1, 2), each(2, 2), each(2, 0)).everyRankHasAProcessor(), "1x2 on 2");
        assertFalse(table(nodes(1, 3), each(3, 2), each(3, 0)).everyRankHasAProcessor(), "1x3 on 2");
        assertFalse(table(nodes(1, 16), each(16, 15), each(16, 0)).everyRankHasAProcessor(), "1x16 on 15");
    }

    @Test
    void oneRankThatSawFewerProcessorsDecidesForEveryone() {
        int[] procs = each(16, 16);
        procs[11] = 8; // e.g. bound to half the machine
        assertFalse(table(nodes(1, 16), procs, each(16, 0)).everyRankHasAProcessor());
        int[] unknown = each(4, 16);
        unknown[3] = 0; // a record without the count: counts as sharing
        assertFalse(table(nodes(1, 4), unknown, each(4, 0)).everyRankHasAProcessor());
    }

    /** Each node's ranks against its own processors; every node must pass, uneven nodes included. */
    @Test
    void severalNodesEachJudgeTheirOwnRanks() {
        assertTrue(table(nodes(4, 4), each(16, 4), each(16, 0)).everyRankHasAProcessor(), "4x4, 4 per node");
        String[] uneven = {"a", "a", "a", "b", "b"};
        assertTrue(table(uneven, new int[] {3, 3, 3, 2, 2}, each(5, 0)).everyRankHasAProcessor(), "3+2 on 3 and 2");
        assertFalse(table(uneven, new int[] {4, 4, 4, 1, 1}, each(5, 0)).everyRankHasAProcessor(), "3+2 on 4 and 1");
    }

    /**
     * An emulated cluster (the launcher sets RAILCOLL_HOST_RANKS to the job's size): every JVM shares the host's
     * processors, so 4x4 on 16 processors is one rank per processor and 4x4 on 2 is not, although 4 ranks a node
     * would fit 4 processors.
     */
    @Test
    void anEmulatedClusterCountsEveryRankOfTheHost() {
        assertTrue(table(nodes(4, 4), each(16, 16), each(16, 16)).everyRankHasAProcessor(), "4x4 on 16");
        assertFalse(table(nodes(4, 4), each(16, 4), each(16, 16)).everyRankHasAProcessor(), "4x4 on 4");
        assertFalse(table(nodes(4, 1), each(4, 2), each(4, 4)).everyRankHasAProcessor(), "4x1 on 2");
    }

    @Test
    void theCountsTravelInTheRecord() throws IOException {
        JobTable t = table(new String[] {"a", "b"}, new int[] {16, 7}, new int[] {0, 2});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        t.write(new DataOutputStream(bytes));
        JobTable back = JobTable.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertEquals(t, back);
        assertEquals(7, back.rank(1).processors());
        assertEquals(2, back.rank(1).hostRanks());
        assertThrows(IllegalArgumentException.class, () -> new RankRecord(0, 1, 1, "a", List.of(), -1, 0));
    }

    @Test
    void aNegativeCountOnTheWireIsRefusedNamingTheRank() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(5);
        out.writeInt(6);
        out.writeLong(99);
        out.writeUTF("n");
        out.writeInt(0);
        out.writeInt(-3);
        out.writeInt(0);
        IOException e = assertThrows(IOException.class,
                () -> RankRecord.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
        assertTrue(e.getMessage().contains("rank 5 published -3 processors"), e.getMessage());
    }
}
