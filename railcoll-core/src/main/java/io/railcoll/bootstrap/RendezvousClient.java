package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;
import io.railcoll.RailcollException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/** A rank's side of the rendezvous: publish my record, receive the job table. */
public final class RendezvousClient {
    private RendezvousClient() {
    }

    /**
     * Connects (retrying while the server is not up yet), proves membership, publishes {@code mine} and waits
     * for the table, all within {@code timeoutNs}.
     */
    public static JobTable exchange(InetSocketAddress server, Handshake handshake, RankRecord mine, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        IOException last = null;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                int leftMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
                s.connect(server, Math.min(leftMs, 5000));
                s.setSoTimeout(leftMs);
                s.setTcpNoDelay(true);
                handshake.connect(s, Handshake.Purpose.RENDEZVOUS, mine.rank(), 0);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                mine.write(out);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                int status = in.readUnsignedByte();
                if (status != 0) {
                    throw new RailcollException("rank " + mine.rank() + ": rendezvous at " + server + " failed: " + in.readUTF());
                }
                return JobTable.read(in);
            } catch (ConnectException | HandshakeDroppedException e) {
                // Not up yet, or dropped by a server busy with strangers (HandshakeAcceptor): try again.
                last = e;
                sleepBriefly();
            } catch (HandshakeRejectedException e) {
                throw e;
            } catch (java.net.SocketTimeoutException e) {
                throw new RailcollException("rank " + mine.rank() + ": no job table from the rendezvous at " + server
                        + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s (other ranks missing?)", e);
            } catch (IOException e) {
                throw new RailcollException("rank " + mine.rank() + ": rendezvous at " + server + " failed: " + e, e);
            }
        }
        throw new RailcollException("rank " + mine.rank() + ": could not reach the rendezvous at " + server + " within "
                + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s" + (last == null ? "" : " (" + last.getMessage() + ")"));
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RailcollException("interrupted while waiting for the rendezvous");
        }
    }
}
