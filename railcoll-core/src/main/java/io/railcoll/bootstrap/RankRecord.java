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
            byte[] addr = in.readNBytes(len);
            int port = in.readUnsignedShort();
            eps.add(new InetSocketAddress(InetAddress.getByAddress(addr), port));
        }
        return new RankRecord(rank, size, pid, nodeKey, eps);
    }
}
