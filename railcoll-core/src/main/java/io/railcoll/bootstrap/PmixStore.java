package io.railcoll.bootstrap;

import io.railcoll.RailcollException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * PMIx as Open MPI's {@code mpirun}/{@code prterun} and Slurm's {@code srun --mpi=pmix} offer it, through
 * {@code libpmix} ({@link PmixLibrary}): {@code PMIx_Init}; rank from the returned process name, size from
 * {@code pmix.job.size}, local rank and size from {@code pmix.lrank} and {@code pmix.local.size}, node from
 * {@code pmix.hname}; {@code PMIx_Put} with global scope and {@code PMIx_Commit}; a fence is {@code PMIx_Fence}
 * over the whole namespace with {@code pmix.collect} and {@code pmix.timeout}.
 */
final class PmixStore implements KeyValueStore {
    private static final String KEY_JOB_SIZE = "pmix.job.size";
    private static final String KEY_LOCAL_RANK = "pmix.lrank";
    private static final String KEY_LOCAL_SIZE = "pmix.local.size";
    private static final String KEY_HOSTNAME = "pmix.hname";
    private static final String KEY_COLLECT = "pmix.collect";
    private static final String KEY_TIMEOUT = "pmix.timeout";

    private final PmixLibrary lib;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment self;
    private final String nspace;
    private final RankIdentity identity;
    private final String version;
    private boolean finalized;

    /** Whether the environment says a PMIx server started this process. */
    static boolean offered(Map<String, String> env) {
        String ns = env.get("PMIX_NAMESPACE");
        String rank = env.get("PMIX_RANK");
        return ns != null && !ns.isBlank() && rank != null && !rank.isBlank();
    }

    /** Finds and loads libpmix and initialises this process as a PMIx client. */
    static PmixStore open(Map<String, String> env) {
        Optional<java.nio.file.Path> path = PmixLibrary.find(env);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("the launcher offers PMIx (PMIX_NAMESPACE=" + env.get("PMIX_NAMESPACE")
                    + ") but no libpmix was found in " + PmixLibrary.searchPath(env) + ": install libpmix2 (Debian,"
                    + " Ubuntu) or pmix (RPM), or set RAILCOLL_PMIX_LIBRARY to the file");
        }
        return new PmixStore(PmixLibrary.load(path.get()), env);
    }

    private PmixStore(PmixLibrary lib, Map<String, String> env) {
        this.lib = lib;
        this.self = arena.allocate(PmixLibrary.PROC_BYTES, 8);
        try {
            check((int) lib.init.invokeExact(self, MemorySegment.NULL, 0L), "PMIx_Init");
            this.nspace = self.getString(0, StandardCharsets.UTF_8);
            int rank = self.get(JAVA_INT, PmixLibrary.PROC_RANK);
            this.version = ((MemorySegment) lib.version.invokeExact()).reinterpret(256).getString(0);
            int size = (int) getLong(PmixLibrary.RANK_WILDCARD, KEY_JOB_SIZE, true, rank);
            int localRank = (int) getLong(rank, KEY_LOCAL_RANK, false, rank);
            int localSize = (int) getLong(PmixLibrary.RANK_WILDCARD, KEY_LOCAL_SIZE, false, rank);
            String host = env.getOrDefault("RAILCOLL_NODE", "").strip();
            if (host.isEmpty()) {
                host = getString(rank, KEY_HOSTNAME).orElseGet(JobIdentity::hostName);
            }
            this.identity = new RankIdentity(rank, size, localRank, localSize, host, RankIdentity.jobIdFrom("pmix-", nspace));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        } catch (Throwable t) {
            arena.close();
            throw new RailcollException("PMIx: a call into " + lib.path + " failed: " + t, t);
        }
    }

    private MemorySegment proc(Arena a, int rank) {
        MemorySegment p = a.allocate(PmixLibrary.PROC_BYTES, 8);
        byte[] ns = nspace.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(ns, 0, p, JAVA_BYTE, 0, Math.min(ns.length, (int) PmixLibrary.NSPACE_BYTES - 1));
        p.set(JAVA_INT, PmixLibrary.PROC_RANK, rank);
        return p;
    }

    /** A pmix_info_t array with a timeout, and optionally collect-data, in {@code arena}. */
    private MemorySegment infos(Arena a, long timeoutNs, boolean collect) {
        int n = collect ? 2 : 1;
        MemorySegment infos = a.allocate(PmixLibrary.INFO_BYTES * n, 8);
        int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toSeconds(timeoutNs + 999_999_999L)));
        MemorySegment timeout = infos.asSlice(0, PmixLibrary.INFO_BYTES);
        setKey(timeout, KEY_TIMEOUT);
        timeout.set(JAVA_SHORT, PmixLibrary.INFO_VALUE, PmixLibrary.TYPE_INT);
        timeout.set(JAVA_INT, PmixLibrary.INFO_VALUE + PmixLibrary.VALUE_DATA, seconds);
        if (collect) {
            MemorySegment c = infos.asSlice(PmixLibrary.INFO_BYTES, PmixLibrary.INFO_BYTES);
            setKey(c, KEY_COLLECT);
            c.set(JAVA_SHORT, PmixLibrary.INFO_VALUE, PmixLibrary.TYPE_BOOL);
            c.set(JAVA_BYTE, PmixLibrary.INFO_VALUE + PmixLibrary.VALUE_DATA, (byte) 1);
        }
        return infos;
    }

    private static void setKey(MemorySegment info, String key) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        MemorySegment.copy(k, 0, info, JAVA_BYTE, 0, k.length);
    }

    /** PMIx_Get: the value's address, or NULL when the key is not found and {@code required} is false. */
    private MemorySegment rawGet(Arena a, int rank, String key, long timeoutNs, boolean required) throws Throwable {
        MemorySegment out = a.allocate(ADDRESS);
        int status = (int) lib.get.invokeExact(proc(a, rank), a.allocateFrom(key), infos(a, timeoutNs, false), 1L, out);
        if (status != 0) {
            if (!required) {
                return MemorySegment.NULL;
            }
            throw new RailcollException("PMIx_Get of " + key + " for rank " + (rank == PmixLibrary.RANK_WILDCARD
                    ? "*" : rank) + " in namespace " + nspace + " failed: " + statusText(status));
        }
        return out.get(ADDRESS, 0).reinterpret(PmixLibrary.VALUE_BYTES);
    }

    private void release(MemorySegment value) throws Throwable {
        lib.valueDestruct.invokeExact(value);
        lib.free.invokeExact(value);
    }

    /** An integer value of any of PMIx's integer types; -1 when absent and not required. */
    private long getLong(int rank, String key, boolean required, int me) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = rawGet(a, rank, key, TimeUnit.SECONDS.toNanos(30), required);
            if (v.equals(MemorySegment.NULL)) {
                return -1;
            }
            try {
                short type = v.get(JAVA_SHORT, 0);
                long d = PmixLibrary.VALUE_DATA;
                return switch (type) {
                    case PmixLibrary.TYPE_UINT8, PmixLibrary.TYPE_BYTE -> Byte.toUnsignedLong(v.get(JAVA_BYTE, d));
                    case PmixLibrary.TYPE_INT8 -> v.get(JAVA_BYTE, d);
                    case PmixLibrary.TYPE_UINT16 -> Short.toUnsignedLong(v.get(JAVA_SHORT, d));
                    case PmixLibrary.TYPE_INT16 -> v.get(JAVA_SHORT, d);
                    case PmixLibrary.TYPE_UINT32, PmixLibrary.TYPE_PROC_RANK -> Integer.toUnsignedLong(v.get(JAVA_INT, d));
                    case PmixLibrary.TYPE_INT, PmixLibrary.TYPE_INT32 -> v.get(JAVA_INT, d);
                    case PmixLibrary.TYPE_SIZE, PmixLibrary.TYPE_UINT64, PmixLibrary.TYPE_INT64 -> v.get(JAVA_LONG, d);
                    default -> throw new RailcollException("rank " + me + ": PMIx gave " + key + " as type " + type
                            + ", not an integer");
                };
            } finally {
                release(v);
            }
        }
    }

    private Optional<String> getString(int rank, String key) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = rawGet(a, rank, key, TimeUnit.SECONDS.toNanos(30), false);
            if (v.equals(MemorySegment.NULL)) {
                return Optional.empty();
            }
            try {
                if (v.get(JAVA_SHORT, 0) != PmixLibrary.TYPE_STRING) {
                    return Optional.empty();
                }
                return Optional.of(v.get(ADDRESS, PmixLibrary.VALUE_DATA).reinterpret(Integer.MAX_VALUE).getString(0));
            } finally {
                release(v);
            }
        }
    }

    private String statusText(int status) {
        try {
            MemorySegment s = (MemorySegment) lib.errorString.invokeExact(status);
            return status + " (" + s.reinterpret(256).getString(0) + ")";
        } catch (Throwable t) {
            return Integer.toString(status);
        }
    }

    private void check(int status, String call) {
        if (status != 0) {
            throw new RailcollException(call + " failed: " + statusText(status) + " (library " + lib.path + ")");
        }
    }

    @Override
    public String protocol() {
        return "PMIx";
    }

    @Override
    public RankIdentity identity() {
        return identity;
    }

    @Override
    public int maxValueLength() {
        return 1 << 20;
    }

    @Override
    public void put(String key, String value) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(PmixLibrary.VALUE_BYTES, 8);
            v.set(JAVA_SHORT, 0, PmixLibrary.TYPE_STRING);
            v.set(ADDRESS, PmixLibrary.VALUE_DATA, a.allocateFrom(value));
            check((int) lib.put.invokeExact(PmixLibrary.SCOPE_GLOBAL, a.allocateFrom(key), v), "PMIx_Put of " + key);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new RailcollException("PMIx_Put failed: " + t, t);
        }
    }

    @Override
    public void fence(long timeoutNs) {
        try (Arena a = Arena.ofConfined()) {
            check((int) lib.commit.invokeExact(), "PMIx_Commit");
            int status = (int) lib.fence.invokeExact(proc(a, PmixLibrary.RANK_WILDCARD), 1L, infos(a, timeoutNs, true), 2L);
            if (status != 0) {
                throw new RailcollException("rank " + identity.rank() + ": PMIx_Fence over namespace " + nspace
                        + " failed within " + seconds(timeoutNs) + ": " + statusText(status)
                        + " (other ranks missing?)");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new RailcollException("PMIx_Fence failed: " + t, t);
        }
    }

    @Override
    public String get(int rank, String key, long timeoutNs) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = rawGet(a, rank, key, timeoutNs, true);
            try {
                short type = v.get(JAVA_SHORT, 0);
                if (type != PmixLibrary.TYPE_STRING) {
                    throw new RailcollException("PMIx: " + key + " of rank " + rank + " has type " + type + ", not a string");
                }
                return v.get(ADDRESS, PmixLibrary.VALUE_DATA).reinterpret(Integer.MAX_VALUE).getString(0);
            } finally {
                release(v);
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new RailcollException("PMIx_Get failed: " + t, t);
        }
    }

    @Override
    public List<String> details() {
        return List.of("process manager: PMIx " + version + " through " + lib.path + ", namespace " + nspace);
    }

    @Override
    public void close() {
        if (finalized) {
            return;
        }
        finalized = true;
        try {
            check((int) lib.finalizeCall.invokeExact(MemorySegment.NULL, 0L), "PMIx_Finalize");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new RailcollException("PMIx_Finalize failed: " + t, t);
        } finally {
            arena.close();
        }
    }

    private static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
