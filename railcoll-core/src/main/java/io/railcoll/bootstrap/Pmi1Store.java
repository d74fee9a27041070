package io.railcoll.bootstrap;

import io.railcoll.RailcollException;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PMI-1 ({@link Pmi1Protocol}) as MPICH's Hydra {@code mpiexec} offers it, in Java: over the descriptor in
 * {@code PMI_FD} or the address in {@code PMI_PORT}. Rank and size come from {@code PMI_RANK}/{@code PMI_SIZE}
 * (or the server's {@code set} lines over a port); local rank and size from Hydra's {@code MPI_LOCALRANKID} and
 * {@code MPI_LOCALNRANKS} where set. Puts go into the job's key-value space; a fence is {@code barrier_in}.
 */
final class Pmi1Store implements KeyValueStore {
    private final LineChannel channel;
    private final RankIdentity identity;
    private final String kvsname;
    private final int maxValueLength;
    private final int maxKeyLength;
    private boolean finalized;

    private Pmi1Store(LineChannel channel, RankIdentity identity, String kvsname, int maxKeyLength, int maxValueLength) {
        this.channel = channel;
        this.identity = identity;
        this.kvsname = kvsname;
        this.maxKeyLength = maxKeyLength;
        this.maxValueLength = maxValueLength;
    }

    /** Whether the environment holds a PMI-1 server's address. */
    static boolean offered(Map<String, String> env) {
        return present(env, "PMI_FD") || present(env, "PMI_PORT");
    }

    /** Connects, initialises and learns rank, size and the key-value space's name within {@code timeoutNs}. */
    static Pmi1Store open(Map<String, String> env, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        LineChannel channel;
        int rank;
        int size;
        try {
            if (present(env, "PMI_FD")) {
                channel = new FdLineChannel(JobIdentity.firstInt(env, "PMI_FD", 0, Integer.MAX_VALUE, "PMI_FD"));
            } else {
                channel = new SocketLineChannel(JobIdentity.parseHostPort(env.get("PMI_PORT").strip()),
                        (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNs)));
            }
        } catch (IOException e) {
            throw new RailcollException("PMI-1: " + e.getMessage(), e);
        }
        try {
            if (present(env, "PMI_FD")) {
                rank = JobIdentity.firstInt(env, "rank", "PMI_RANK");
                size = JobIdentity.firstInt(env, "size", "PMI_SIZE");
            } else {
                String id = present(env, "PMI_ID") ? env.get("PMI_ID").strip() : env.getOrDefault("PMI_RANK", "").strip();
                if (id.isEmpty()) {
                    throw new IllegalArgumentException("PMI_PORT is set but neither PMI_ID nor PMI_RANK: cannot introduce"
                            + " this process to the process manager");
                }
                String sent = Pmi1Protocol.command("initack", "pmiid", id);
                channel.write(sent);
                Pmi1Protocol.expect(channel.readLine(deadline), "initack", sent);
                Map<String, String> sizeLine = Pmi1Protocol.expect(channel.readLine(deadline), "set", sent);
                Map<String, String> rankLine = Pmi1Protocol.expect(channel.readLine(deadline), "set", sent);
                Pmi1Protocol.expect(channel.readLine(deadline), "set", sent); // debug=
                size = Pmi1Protocol.intAttribute(sizeLine, "size");
                rank = Pmi1Protocol.intAttribute(rankLine, "rank");
            }
            String sent = Pmi1Protocol.command("init", "pmi_version", "1", "pmi_subversion", "1");
            channel.write(sent);
            Pmi1Protocol.expect(channel.readLine(deadline), "response_to_init", sent);
            sent = Pmi1Protocol.command("get_maxes");
            channel.write(sent);
            Map<String, String> maxes = Pmi1Protocol.expect(channel.readLine(deadline), "maxes", sent);
            sent = Pmi1Protocol.command("get_my_kvsname");
            channel.write(sent);
            String kvsname = Pmi1Protocol.expect(channel.readLine(deadline), "my_kvsname", sent).get("kvsname");
            if (kvsname == null || kvsname.isEmpty()) {
                throw new IllegalStateException("PMI-1: the process manager named no key-value space");
            }
            int localRank = optionalInt(env, "MPI_LOCALRANKID");
            int localSize = optionalInt(env, "MPI_LOCALNRANKS");
            String node = present(env, "RAILCOLL_NODE") ? env.get("RAILCOLL_NODE").strip() : JobIdentity.hostName();
            RankIdentity identity = new RankIdentity(rank, size, localRank, localSize, node,
                    RankIdentity.jobIdFrom("pmi-", kvsname));
            return new Pmi1Store(channel, identity, kvsname, Pmi1Protocol.intAttribute(maxes, "keylen_max"),
                    Pmi1Protocol.intAttribute(maxes, "vallen_max"));
        } catch (IOException | RuntimeException e) {
            channel.close();
            if (e instanceof SocketTimeoutException) {
                throw new RailcollException("PMI-1 (" + channel.describe() + "): no answer from the process manager"
                        + " within " + seconds(timeoutNs), e);
            }
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new RailcollException("PMI-1 (" + channel.describe() + "): " + e.getMessage(), e);
        }
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }

    private static int optionalInt(Map<String, String> env, String name) {
        return present(env, name) ? JobIdentity.firstInt(env, name, 0, Integer.MAX_VALUE, name) : -1;
    }

    @Override
    public String protocol() {
        return "PMI-1";
    }

    @Override
    public RankIdentity identity() {
        return identity;
    }

    @Override
    public int maxValueLength() {
        return maxValueLength;
    }

    @Override
    public void put(String key, String value) {
        if (key.length() > maxKeyLength) {
            throw new IllegalArgumentException("PMI-1 key '" + key + "' is longer than the server's " + maxKeyLength);
        }
        call(Pmi1Protocol.command("put", "kvsname", kvsname, "key", key, "value", value), "put_result",
                TimeUnit.SECONDS.toNanos(60));
    }

    @Override
    public void fence(long timeoutNs) {
        call(Pmi1Protocol.command("barrier_in"), "barrier_out", timeoutNs);
    }

    @Override
    public String get(int rank, String key, long timeoutNs) {
        Map<String, String> reply = call(Pmi1Protocol.command("get", "kvsname", kvsname, "key", key), "get_result",
                timeoutNs);
        String value = reply.get("value");
        if (value == null) {
            throw new RailcollException("PMI-1: rank " + identity.rank() + " found no value of " + key
                    + " (put by rank " + rank + ")");
        }
        return value;
    }

    private Map<String, String> call(String sent, String expected, long timeoutNs) {
        try {
            channel.write(sent);
            return Pmi1Protocol.expect(channel.readLine(System.nanoTime() + timeoutNs), expected, sent);
        } catch (SocketTimeoutException e) {
            throw new RailcollException("rank " + identity.rank() + ": PMI-1 (" + channel.describe() + ") did not answer '"
                    + sent.strip() + "' within " + seconds(timeoutNs)
                    + (expected.equals("barrier_out") ? " (other ranks missing?)" : ""), e);
        } catch (IOException | IllegalStateException e) {
            throw new RailcollException("rank " + identity.rank() + ": PMI-1 (" + channel.describe() + "): "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<String> details() {
        return List.of("process manager: PMI-1 over " + channel.describe() + ", key-value space " + kvsname);
    }

    @Override
    public void close() {
        if (finalized) {
            return;
        }
        finalized = true;
        try {
            call(Pmi1Protocol.command("finalize"), "finalize_ack", TimeUnit.SECONDS.toNanos(10));
        } finally {
            channel.close();
        }
    }

    private static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
