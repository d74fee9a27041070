package io.railcoll.flood;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A hostile client, run as its own process: {@code Flooder COUNT SECONDS host:port...} opens COUNT connections to
 * each target, from this machine to loopback only, in three kinds taken in turn:
 * <ul>
 *   <li>silent: connects and sends nothing;</li>
 *   <li>slow: sends a valid handshake magic and version, then one more byte every 200 ms (it looks like a peer
 *       that is about to prove itself, so it is held until the handshake deadline);</li>
 *   <li>garbage: sends 64 random bytes.</li>
 * </ul>
 * Prints {@code READY connected=N failed=M} once every connection was attempted, then keeps the slow ones trickling
 * for at most SECONDS seconds and exits. Every loop is bounded.
 */
public final class Flooder {
    private Flooder() {
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int seconds = Integer.parseInt(args[1]);
        List<InetSocketAddress> targets = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            int colon = args[i].lastIndexOf(':');
            targets.add(new InetSocketAddress(args[i].substring(0, colon), Integer.parseInt(args[i].substring(colon + 1))));
        }
        Random random = new Random(26);
        List<SocketChannel> slow = new ArrayList<>();
        List<SocketChannel> all = new ArrayList<>();
        int failed = 0;
        try (Selector selector = Selector.open()) {
            for (InetSocketAddress target : targets) {
                for (int i = 0; i < count; i++) {
                    SocketChannel ch = SocketChannel.open();
                    ch.configureBlocking(false);
                    try {
                        ch.connect(target);
                        ch.register(selector, SelectionKey.OP_CONNECT, i % 3);
                        all.add(ch);
                    } catch (IOException e) {
                        failed++;
                        ch.close();
                    }
                }
            }
            int connected = 0;
            long until = System.nanoTime() + 20_000_000_000L;
            int open = all.size();
            while (connected + failed < targets.size() * count && open > 0 && System.nanoTime() < until) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel ch = (SocketChannel) key.channel();
                    int kind = (Integer) key.attachment();
                    try {
                        if (!ch.finishConnect()) {
                            continue;
                        }
                        connected++;
                        key.cancel();
                        if (kind == 1) {
                            ch.write(ByteBuffer.wrap(new byte[] {0x52, 0x43, 0x48, 0x53, 0, 1}));
                            slow.add(ch);
                        } else if (kind == 2) {
                            byte[] junk = new byte[64];
                            random.nextBytes(junk);
                            ch.write(ByteBuffer.wrap(junk));
                        }
                    } catch (IOException e) {
                        failed++;
                        key.cancel();
                        ch.close();
                    }
                    open--;
                }
                selector.selectedKeys().clear();
            }
            System.out.println("READY connected=" + connected + " failed=" + failed);
            System.out.flush();
            for (int round = 0; round < seconds * 5; round++) {
                Thread.sleep(200);
                for (SocketChannel ch : slow) {
                    if (ch.isOpen()) {
                        try {
                            ch.write(ByteBuffer.wrap(new byte[] {0}));
                        } catch (IOException e) {
                            ch.close();
                        }
                    }
                }
            }
        } finally {
            for (SocketChannel ch : all) {
                ch.close();
            }
        }
    }
}
