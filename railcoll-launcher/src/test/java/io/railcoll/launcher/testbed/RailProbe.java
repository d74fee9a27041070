package io.railcoll.launcher.testbed;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A tiny TCP program the cluster tests run inside node namespaces (one JVM per role, because a JVM start
 * is the expensive part here). Line protocol on stdin/stdout; the process exits when stdin closes.
 *
 * <ul>
 *   <li>{@code serve PORT}: accepts on every address; per connection reads to end of stream, then answers
 *       with the byte count as 8 bytes. Prints {@code listening} once bound.</li>
 *   <li>{@code client}: reads commands. {@code connect HOST PORT TIMEOUT_MS} answers {@code ok} or
 *       {@code fail <exception>}; {@code send HOST PORT BYTES} answers {@code sent <count> <nanos>}, timed from
 *       connect to the server's answer, i.e. until every byte has crossed the rail.</li>
 * </ul>
 */
public final class RailProbe {
    private static final int READ_TIMEOUT_MS = 30_000;

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "serve" -> serve(Integer.parseInt(args[1]));
            case "client" -> client();
            default -> throw new IllegalArgumentException("serve PORT | client");
        }
    }

    private static void serve(int port) throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(port));
        exitWhenStdinCloses();
        System.out.println("listening");
        System.out.flush();
        while (true) {
            Socket socket = server.accept();
            Thread.ofVirtual().start(() -> {
                try (socket) {
                    socket.setSoTimeout(READ_TIMEOUT_MS);
                    InputStream in = socket.getInputStream();
                    byte[] buffer = new byte[64 * 1024];
                    long count = 0;
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        count += n;
                    }
                    new DataOutputStream(socket.getOutputStream()).writeLong(count);
                } catch (IOException e) {
                    System.err.println("serve: " + e);
                }
            });
        }
    }

    private static void client() throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = commands.readLine()) != null; ) {
            String[] words = line.trim().split("\\s+");
            String answer;
            try {
                answer = switch (words[0]) {
                    case "connect" -> transfer(words[1], Integer.parseInt(words[2]), Integer.parseInt(words[3]), 0) >= 0 ? "ok" : "fail";
                    case "send" -> {
                        long start = System.nanoTime();
                        long count = transfer(words[1], Integer.parseInt(words[2]), 5_000, Long.parseLong(words[3]));
                        yield "sent " + count + " " + (System.nanoTime() - start);
                    }
                    default -> "fail unknown command " + line;
                };
            } catch (IOException e) {
                answer = "fail " + e;
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    /** Connects, writes {@code bytes}, half-closes and returns the count the server read. */
    private static long transfer(String host, int port, int connectTimeoutMs, long bytes) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] chunk = new byte[64 * 1024];
            for (long left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
            out.flush();
            socket.shutdownOutput();
            return new DataInputStream(socket.getInputStream()).readLong();
        }
    }

    private static void exitWhenStdinCloses() {
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // ignore input; only its end matters
                }
            } catch (IOException e) {
                // treat like end of input
            }
            System.exit(0);
        });
    }
}
