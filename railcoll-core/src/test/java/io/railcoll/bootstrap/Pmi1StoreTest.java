package io.railcoll.bootstrap;

import io.railcoll.RailcollException;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PMI-1 client's own behaviour over {@code PMI_PORT}: the introduction, the key-value calls and the deadline of a
 * barrier nobody completes. The server here is a few lines that answer as Hydra does for a one-rank job; Hydra
 * itself is exercised by {@code HydraLaunchSystemTest}.
 */
class Pmi1StoreTest {

    /** Answers one client; {@code answerBarrier} false leaves barrier_in unanswered, as when a rank never arrives. */
    private static final class OneClientServer implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final List<String> received = new CopyOnWriteArrayList<>();
        final Thread thread;

        OneClientServer(boolean answerBarrier) throws Exception {
            thread = Thread.ofPlatform().daemon().start(() -> serve(answerBarrier));
        }

        private void serve(boolean answerBarrier) {
            Map<String, String> kvs = new HashMap<>();
            try (Socket s = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                OutputStream out = s.getOutputStream();
                String line;
                while ((line = in.readLine()) != null) {
                    received.add(line);
                    Map<String, String> cmd = Pmi1Protocol.parse(line);
                    String reply = switch (cmd.get("cmd")) {
                        case "initack" -> "cmd=initack\ncmd=set size=3\ncmd=set rank=2\ncmd=set debug=0\n";
                        case "init" -> "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n";
                        case "get_maxes" -> "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0\n";
                        case "get_my_kvsname" -> "cmd=my_kvsname kvsname=kvs_9_0 rc=0\n";
                        case "put" -> {
                            kvs.put(cmd.get("key"), cmd.get("value"));
                            yield "cmd=put_result rc=0 msg=success\n";
                        }
                        case "get" -> kvs.containsKey(cmd.get("key"))
                                ? "cmd=get_result rc=0 msg=success value=" + kvs.get(cmd.get("key")) + "\n"
                                : "cmd=get_result rc=-1 msg=key_" + cmd.get("key") + "_not_found\n";
                        case "barrier_in" -> answerBarrier ? "cmd=barrier_out\n" : null;
                        case "finalize" -> "cmd=finalize_ack\n";
                        default -> "cmd=" + cmd.get("cmd") + "_unknown rc=-1\n";
                    };
                    if (reply != null) {
                        out.write(reply.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
            } catch (Exception ignored) {
                // the client went away; the test has what it needs
            }
        }

        Map<String, String> env() {
            return Map.of("PMI_PORT", "127.0.0.1:" + server.getLocalPort(), "PMI_ID", "2");
        }

        @Override
        public void close() throws Exception {
            server.close();
            thread.join(5000);
        }
    }

    @Test
    void identityComesFromTheServersSetLinesAndValuesGoThroughTheStore() throws Exception {
        try (OneClientServer server = new OneClientServer(true)) {
            try (Pmi1Store store = Pmi1Store.open(server.env(), TimeUnit.SECONDS.toNanos(10))) {
                assertEquals(2, store.identity().rank());
                assertEquals(3, store.identity().size());
                assertEquals("pmi-kvs_9_0", store.identity().jobId());
                assertEquals(1024, store.maxValueLength());
                store.put("railcoll-r2", "00ab");
                store.fence(TimeUnit.SECONDS.toNanos(10));
                assertEquals("00ab", store.get(2, "railcoll-r2", TimeUnit.SECONDS.toNanos(10)));
                RailcollException missing = assertThrows(RailcollException.class,
                        () -> store.get(1, "railcoll-r1", TimeUnit.SECONDS.toNanos(10)));
                assertTrue(missing.getMessage().contains("rc=-1") && missing.getMessage().contains("railcoll-r1"),
                        missing.getMessage());
            }
            server.thread.join(5000);
            assertEquals("cmd=initack pmiid=2", server.received.getFirst());
            assertEquals("cmd=finalize", server.received.getLast());
        }
    }

    @Test
    void aBarrierNobodyCompletesFailsAtItsDeadlineNamingIt() throws Exception {
        try (OneClientServer server = new OneClientServer(false);
             Pmi1Store store = Pmi1Store.open(server.env(), TimeUnit.SECONDS.toNanos(10))) {
            long start = System.nanoTime();
            RailcollException e = assertThrows(RailcollException.class, () -> store.fence(TimeUnit.MILLISECONDS.toNanos(500)));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(e.getMessage().contains("barrier_in") && e.getMessage().contains("other ranks missing"),
                    e.getMessage());
            assertTrue(tookMs >= 450 && tookMs < 30_000, "waited " + tookMs + " ms");
            // Closing still says goodbye: the server answers finalize although the barrier never ended.
            store.close();
            server.thread.join(5000);
            assertEquals("cmd=finalize", server.received.getLast());
        }
    }

    @Test
    void somethingThatIsNotAPmiServerIsNamed() throws Exception {
        try (ServerSocket notPmi = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = notPmi.accept()) {
                    s.getOutputStream().write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.UTF_8));
                    s.getOutputStream().flush();
                    s.getInputStream().read(new byte[256]);
                } catch (Exception ignored) {
                    // done
                }
            });
            RailcollException e = assertThrows(RailcollException.class, () -> Pmi1Store.open(
                    Map.of("PMI_PORT", "127.0.0.1:" + notPmi.getLocalPort(), "PMI_ID", "0"), TimeUnit.SECONDS.toNanos(5)));
            assertTrue(e.getMessage().contains("PMI_PORT=127.0.0.1:" + notPmi.getLocalPort()), e.getMessage());
            t.join(5000);
        }
    }
}

