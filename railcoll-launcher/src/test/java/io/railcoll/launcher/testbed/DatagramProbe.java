package io.railcoll.launcher.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32;

/**
 * Real UDP multicast datagrams across a testbed rail, for measuring what an impairment does to them. One JVM per
 * role inside a node namespace; commands on stdin, one answer line each on stdout; exits when stdin closes.
 *
 * <ul>
 *   <li>{@code receive GROUP PORT RAIL_ADDRESS}: joins the group on the rail, prints {@code ready}, and counts
 *       every datagram (sequence number, length, CRC-32 of the payload). {@code report} waits until nothing
 *       arrived for 300 ms (at most 10 s) and answers {@code distinct D duplicates X overtaken O badCrc B
 *       rcvbufErrors R ipCsumErrors C}: D different sequence numbers, X copies beyond the first, O first copies
 *       that came after a higher sequence number (were overtaken), B with a wrong CRC, R and C the kernel's
 *       counters of this namespace (UDP receive-buffer overflows, IPv4 header checksum failures).</li>
 *   <li>{@code send GROUP PORT RAIL_ADDRESS}: {@code send N SIZE} sends N datagrams of SIZE bytes (sequence
 *       0..N-1) in bursts of 16 with 100 microseconds between bursts, answering {@code sent N}.</li>
 * </ul>
 */
public final class DatagramProbe {
    private static final int BURST = 16;
    private static final long BURST_GAP_NANOS = 100_000;

    public static void main(String[] args) throws Exception {
        InetAddress group = InetAddress.getByName(args[1]);
        int port = Integer.parseInt(args[2]);
        InetAddress rail = InetAddress.getByName(args[3]);
        NetworkInterface nic = NetworkInterface.getByInetAddress(rail);
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (args[0]) {
            case "receive" -> receive(group, port, nic, commands);
            case "send" -> send(group, port, nic, commands);
            default -> throw new IllegalArgumentException("receive|send GROUP PORT RAIL_ADDRESS");
        }
    }

    private static void receive(InetAddress group, int port, NetworkInterface nic, BufferedReader commands) throws Exception {
        DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET)
                .setOption(StandardSocketOptions.SO_REUSEADDR, true)
                .setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20)
                .bind(new InetSocketAddress(port));
        channel.join(group, nic);
        BitSet seen = new BitSet();
        long[] counts = new long[3]; // duplicates, overtaken, bad CRC
        long[] lastArrival = {System.nanoTime()};
        Object lock = new Object();
        Thread.ofPlatform().daemon().start(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(65536);
            CRC32 crc = new CRC32();
            int highest = -1;
            try {
                while (true) {
                    buffer.clear();
                    channel.receive(buffer);
                    buffer.flip();
                    synchronized (lock) {
                        lastArrival[0] = System.nanoTime();
                        if (buffer.remaining() < 12) {
                            counts[2]++;
                            continue;
                        }
                        int seq = buffer.getInt();
                        long expected = buffer.getLong() & 0xffffffffL;
                        crc.reset();
                        crc.update(buffer);
                        if (crc.getValue() != expected) {
                            counts[2]++;
                        } else if (seen.get(seq)) {
                            counts[0]++;
                        } else {
                            seen.set(seq);
                            if (seq < highest) {
                                counts[1]++;
                            }
                            highest = Math.max(highest, seq);
                        }
                    }
                }
            } catch (IOException e) {
                System.err.println("receive: " + e);
            }
        });
        System.out.println("ready");
        System.out.flush();
        for (String line; (line = commands.readLine()) != null; ) {
            if (!line.equals("report")) {
                System.out.println("fail unknown command " + line);
                continue;
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                synchronized (lock) {
                    if (System.nanoTime() - lastArrival[0] > 300_000_000L) {
                        break;
                    }
                }
                Thread.sleep(20);
            }
            synchronized (lock) {
                System.out.println("distinct " + seen.cardinality() + " duplicates " + counts[0] + " overtaken " + counts[1]
                        + " badCrc " + counts[2] + " rcvbufErrors " + counter("/proc/net/snmp", "Udp:", "RcvbufErrors")
                        + " ipCsumErrors " + counter("/proc/net/netstat", "IpExt:", "InCsumErrors"));
            }
            System.out.flush();
        }
        System.exit(0);
    }

    private static void send(InetAddress group, int port, NetworkInterface nic, BufferedReader commands) throws Exception {
        DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET)
                .setOption(StandardSocketOptions.IP_MULTICAST_IF, nic)
                .setOption(StandardSocketOptions.IP_MULTICAST_LOOP, false);
        InetSocketAddress target = new InetSocketAddress(group, port);
        for (String line; (line = commands.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            if (!words[0].equals("send")) {
                System.out.println("fail unknown command " + line);
                continue;
            }
            int count = Integer.parseInt(words[1]);
            int size = Integer.parseInt(words[2]);
            ByteBuffer buffer = ByteBuffer.allocate(size);
            CRC32 crc = new CRC32();
            for (int seq = 0; seq < count; seq++) {
                buffer.clear();
                buffer.putInt(seq).putLong(0);
                for (int i = 12; i < size; i++) {
                    buffer.put((byte) (seq * 31 + i));
                }
                crc.reset();
                crc.update(buffer.array(), 12, size - 12);
                buffer.putLong(4, crc.getValue());
                buffer.flip();
                channel.send(buffer, target);
                if (seq % BURST == BURST - 1) {
                    LockSupport.parkNanos(BURST_GAP_NANOS);
                }
            }
            System.out.println("sent " + count);
            System.out.flush();
        }
        System.exit(0);
    }

    /** One counter from a /proc/net table (a header line and a value line, both starting with {@code prefix}). */
    private static long counter(String file, String prefix, String name) throws IOException {
        String[] header = null;
        for (String line : Files.readAllLines(Path.of(file))) {
            if (!line.startsWith(prefix)) {
                continue;
            }
            String[] words = line.substring(prefix.length()).trim().split("\\s+");
            if (header == null) {
                header = words;
            } else {
                for (int i = 0; i < header.length; i++) {
                    if (header[i].equals(name)) {
                        return Long.parseLong(words[i]);
                    }
                }
                return -1;
            }
        }
        return -1;
    }
}
