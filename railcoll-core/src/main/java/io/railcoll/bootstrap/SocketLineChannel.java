package io.railcoll.bootstrap;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** PMI-1 over {@code PMI_PORT}: a TCP connection to the process manager. */
final class SocketLineChannel extends BufferedLineChannel {
    private final Socket socket;
    private final String name;

    SocketLineChannel(InetSocketAddress server, int connectTimeoutMs) throws IOException {
        this.socket = new Socket();
        this.name = "PMI_PORT=" + server.getHostString() + ":" + server.getPort();
        try {
            socket.connect(server, connectTimeoutMs);
            socket.setTcpNoDelay(true);
        } catch (IOException e) {
            socket.close();
            throw new IOException(name + ": cannot connect: " + e.getMessage(), e);
        }
    }

    @Override
    protected int readSome(byte[] into, int timeoutMs) throws IOException {
        socket.setSoTimeout(Math.max(1, timeoutMs));
        try {
            return socket.getInputStream().read(into);
        } catch (SocketTimeoutException e) {
            return 0;
        }
    }

    @Override
    protected void writeAll(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    @Override
    public String describe() {
        return name;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the job is ending; nothing else to release
        }
    }
}
