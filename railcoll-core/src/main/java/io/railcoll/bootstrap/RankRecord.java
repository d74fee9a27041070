package io.railcoll.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * What a rank publishes at the rendezvous: who it is, which node it is on (a key shared by the ranks of a
 * node), its process id (for shared-memory clean-up and single-copy transfers), one listening endpoint per rail, and
 * the processors it sees with the ranks it shares them with, from which every rank judges alike whether every rank
 * of the job has a processor of its own ({@link JobTable#everyRankHasAProcessor()}, decision 0196).
 *
 * @param processors the processors this rank's node offers it ({@code NodeCpus.count()}); 0: not known, which counts
 *                   as sharing
 * @param hostRanks  the ranks that share this host's processors when the launcher emulates several nodes on it
 *                   ({@code RAILCOLL_HOST_RANKS}); 0: only this rank's node-mates
 */
public record RankRecord(int rank, int size, long pid, String nodeKey, List<InetSocketAddress> railEndpoints,
                         int processors, int hostRanks) {

    /**
     * The most bytes a record takes: fixed fields, a node key of up to 65535 bytes, 64 rails of IPv6 endpoints, the
     * two processor counts.
     */
    static final int MAX_BYTES = 4 + 4 + 8 + 2 + 65535 + 4 + 64 * (1 + 16 + 2) + 4 + 4;

    public RankRecord {
        railEndpoints = List.copyOf(railEndpoints);
        if (processors < 0 || hostRanks < 0) {
            throw new IllegalArgumentException("rank " + rank + ": processors " + processors + " and host ranks "
                    + hostRanks + " must be >= 0");
        }
    }

    /** A record whose processors are not known (tests of the wiring): it counts as sharing them. */
    public RankRecord(int rank, int size, long pid, String nodeKey, List<InetSocketAddress> railEndpoints) {
        this(rank, size, pid, nodeKey, railEndpoints, 0, 0);
    }

    void write(DataOutputStream out) throws IOException {
        out.writeInt(rank);
        out.writeInt(size);
        out.writeLong(pid);
        out.writeUTF(nodeKey);
        out.writeInt(railEndpoints.size());
        for (InetSocketAddress a : railEndpoints) {
            byte[] addr = a.getAddress().getAddress();
            out.writeByte(addr.length);
            out.write(addr);
            out.writeShort(a.getPort());
        }
        out.writeInt(processors);
        out.writeInt(hostRanks);
    }

    static RankRecord read(DataInputStream in) throws IOException {
        int rank = in.readInt();
        int size = in.readInt();
        long pid = in.readLong();
        String nodeKey = in.readUTF();
        int rails = in.readInt();
        if (rails < 0 || rails > 64) {
            throw new IOException("implausible rail count " + rails + " from rank " + rank);
        }
        List<InetSocketAddress> eps = new ArrayList<>(rails);
        for (int i = 0; i < rails; i++) {
            int len = in.readUnsignedByte();
            if (len != 4 && len != 16) {
                throw new IOException("rank " + rank + " published a " + len + "-byte address; IPv4 has 4, IPv6 16");
            }
            byte[] addr = new byte[len];
            in.readFully(addr);
            int port = in.readUnsignedShort();
            eps.add(new InetSocketAddress(InetAddress.getByAddress(addr), port));
        }
        int processors = in.readInt();
        int hostRanks = in.readInt();
        if (processors < 0 || hostRanks < 0) {
            throw new IOException("rank " + rank + " published " + processors + " processors and " + hostRanks
                    + " ranks on its host; neither may be negative");
        }
        return new RankRecord(rank, size, pid, nodeKey, eps, processors, hostRanks);
    }
}
