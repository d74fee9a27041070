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
        this(members, MulticastMember.class, m -> List.of(Integer.toString(m.rank()),
                        String.join(",", members.stream().map(x -> Integer.toString(x.rank())).toList()), m.railAddress(),
                        Integer.toString(comm), Long.toString(seed),
                        String.join(",", java.util.Arrays.stream(sizes).mapToObj(Integer::toString).toList()),
                        Integer.toString(m.rank() == dieRank ? dieAt : -1)),
                "mcast-systest-" + ProcessHandle.current().pid() + "-" + comm, env, List.of("-Xmx256m", "-XX:+UseSerialGC"));
    }

    /**
     * Starts {@code main} once per member with {@code args.apply(member)}; the program must print
     * {@code LISTEN port} first and then read a {@code PEERS} line (see {@link MulticastMember}).
     */
    MulticastProcesses(List<Member> members, Class<?> main, java.util.function.Function<Member, List<String>> args,
                       String job, Map<String, String> env, List<String> jvmOptions) throws Exception {
        this.members = members;
        for (Member m : members) {
            List<String> cmd = new ArrayList<>(m.prefix());
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
            cmd.addAll(args.apply(m));
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

    /** The next line member {@code i} prints, waiting up to {@code seconds}. */
    String nextLine(int i, int seconds) throws Exception {
        return next(i, seconds);
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
