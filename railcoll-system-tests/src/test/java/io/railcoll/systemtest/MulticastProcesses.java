package io.railcoll.systemtest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Starts one {@link MulticastMember} JVM per member (each behind an optional command prefix such as
 * {@code ip netns exec NS}), wires their control links and collects what they print. Closing kills what is
 * still running.
 */
final class MulticastProcesses implements AutoCloseable {
    record Member(int rank, List<String> prefix, String railAddress) {
    }

    private final List<Process> processes = new ArrayList<>();
    private final List<BlockingQueue<String>> lines = new ArrayList<>();
    private final List<List<String>> all = new ArrayList<>();
    private final List<Path> stderr = new ArrayList<>();
    private final List<Member> members;

    MulticastProcesses(List<Member> members, int comm, long seed, int[] sizes, int dieRank, int dieAt,
                       Map<String, String> env) throws Exception {
        this.members = members;
        String ranks = String.join(",", members.stream().map(m -> Integer.toString(m.rank())).toList());
        String sizeList = String.join(",", java.util.Arrays.stream(sizes).mapToObj(Integer::toString).toList());
        String job = "mcast-systest-" + ProcessHandle.current().pid() + "-" + comm;
        for (Member m : members) {
            List<String> cmd = new ArrayList<>(m.prefix());
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                    "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), MulticastMember.class.getName(),
                    Integer.toString(m.rank()), ranks, m.railAddress(), Integer.toString(comm), Long.toString(seed), sizeList,
                    Integer.toString(m.rank() == dieRank ? dieAt : -1)));
            Path err = Files.createTempFile("railcoll-mcast-member", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
            pb.environment().putAll(env);
            pb.environment().put("RAILCOLL_JOB_ID", job);
            pb.environment().put("RAILCOLL_SECRET", "system-test-secret");
            Process p = pb.start();
            processes.add(p);
            stderr.add(err);
            BlockingQueue<String> q = new LinkedBlockingQueue<>();
            List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            lines.add(q);
            all.add(seen);
            Thread.ofVirtual().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        seen.add(l);
                        q.add(l);
                    }
                } catch (IOException e) {
                    q.add("(stdout broken: " + e + ")");
                }
                q.add("EOF");
            });
        }
        StringBuilder peers = new StringBuilder("PEERS ");
        for (int i = 0; i < members.size(); i++) {
            String l = next(i, 60);
            if (!l.startsWith("LISTEN ")) {
                throw new AssertionError("member " + members.get(i).rank() + " said " + l + " instead of LISTEN; stderr: "
                        + Files.readString(stderr.get(i)));
            }
            peers.append(i == 0 ? "" : ",").append(members.get(i).rank()).append('@').append(members.get(i).railAddress())
                    .append(':').append(l.substring(7));
        }
        for (Process p : processes) {
            Writer w = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
            w.write(peers + "\n");
            w.flush();
        }
    }

    private String next(int i, int seconds) throws Exception {
        String l = lines.get(i).poll(seconds, TimeUnit.SECONDS);
        if (l == null) {
            throw new AssertionError("member " + members.get(i).rank() + " silent for " + seconds + " s; stderr: "
                    + Files.readString(stderr.get(i)));
        }
        return l;
    }

    /** The final line (DONE or FAILED) of each member, waiting up to {@code seconds} for all of them. */
    List<String> outcomes(int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            String outcome = null;
            while (outcome == null) {
                long left = (deadline - System.nanoTime()) / 1_000_000_000L;
                String l = next(i, (int) Math.max(1, left));
                if (l.startsWith("DONE ") || l.startsWith("FAILED ") || l.equals("EOF")) {
                    outcome = l;
                }
            }
            out.add(outcome);
        }
        return out;
    }

    /** Everything member {@code i} printed so far. */
    String output(int i) throws IOException {
        return String.join("\n", all.get(i)) + "\n--- stderr ---\n" + Files.readString(stderr.get(i));
    }

    @Override
    public void close() throws Exception {
        for (Process p : processes) {
            if (!p.waitFor(2, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        for (Path p : stderr) {
            Files.deleteIfExists(p);
        }
    }
}
