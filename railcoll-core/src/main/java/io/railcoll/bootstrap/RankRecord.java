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
 * node), its process id (for shared-memory clean-up and single-copy transfers) and one listening endpoint per rail.
 */
public record RankRecord(int rank, int size, long pid, String nodeKey, List<InetSocketAddress> railEndpoints) {

    /** The most bytes a record takes: fixed fields, a node key of up to 65535 bytes, 64 rails of IPv6 endpoints. */
    static final int MAX_BYTES = 4 + 4 + 8 + 2 + 65535 + 4 + 64 * (1 + 16 + 2);

    public RankRecord {
        railEndpoints = List.copyOf(railEndpoints);
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
        return new RankRecord(rank, size, pid, nodeKey, eps);
    }
}
