package io.railcoll.transport.mcast;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Who takes part in one multicast broadcast group and where its datagrams go: the job ranks of the communicator
 * (any subset of the job, contiguous or not: IP multicast addresses a group by membership, so paper 003's
 * partition into contiguous ranges, sec. 4.2, is not needed), this member's rail address (the interface it joins
 * on), and the group address and port, derived from the job id and communicator id so every member computes the
 * same without an exchange: 239.x.y.z (organisation-local scope, RFC 2365) and a port in 40000..49999. Two groups
 * whose hashes collide still never mix: every datagram carries the job hash and communicator id. Immutable.
 */
public record MulticastGroup(String jobId, int communicatorId, int[] memberRanks, int myRank, InetAddress railAddress,
                             InetAddress groupAddress, int port) {

    public MulticastGroup {
        memberRanks = memberRanks.clone();
        if (memberRanks.length < 1) {
            throw new IllegalArgumentException("a multicast group needs at least one member");
        }
        if (Arrays.stream(memberRanks).noneMatch(r -> r == myRank)) {
            throw new IllegalArgumentException("rank " + myRank + " is not in the group " + Arrays.toString(memberRanks));
        }
        if (!groupAddress.isMulticastAddress() || !(groupAddress instanceof Inet4Address)) {
            throw new IllegalArgumentException(groupAddress + " is not an IPv4 multicast address");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range");
        }
    }

    /** The group with its address and port derived from {@code jobId} and {@code communicatorId}. */
    public static MulticastGroup derive(String jobId, int communicatorId, int[] memberRanks, int myRank, InetAddress railAddress) {
        long h = jobHash(jobId) * 31 + communicatorId;
        h ^= h >>> 29;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 32;
        byte[] a = {(byte) 239, (byte) (1 + (h & 0xfe)), (byte) (h >>> 8), (byte) (1 + ((h >>> 16) & 0xfd))};
        int port = 40000 + (int) Math.floorMod(h >>> 24, 10000L);
        try {
            return new MulticastGroup(jobId, communicatorId, memberRanks, myRank, railAddress, InetAddress.getByAddress(a), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** 64-bit FNV-1a of the job id: carried in every datagram so another job's traffic is dropped. */
    public static long jobHash(String jobId) {
        long h = 0xcbf29ce484222325L;
        for (byte b : jobId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    @Override
    public int[] memberRanks() {
        return memberRanks.clone();
    }

    @Override
    public String toString() {
        return "group " + groupAddress.getHostAddress() + ":" + port + " on " + railAddress.getHostAddress()
                + " (job " + jobId + ", communicator " + communicatorId + ", ranks " + Arrays.toString(memberRanks) + ")";
    }
}
