package io.railcoll.schedule;

/**
 * The collective operations, with the buffer convention every algorithm of that collective follows.
 *
 * <p>{@code b} is the block size ({@link Shape#blockBytes()}), {@code N} the number of ranks.
 * <ul>
 *   <li>{@link #BARRIER}: no data; SEND and RECV are empty.</li>
 *   <li>{@link #BROADCAST}: RECV holds the {@code b}-byte message on every rank; the root's RECV is the source.</li>
 *   <li>{@link #GATHER}: SEND is {@code b} bytes on every rank; RECV is {@code N*b} bytes on the root (block i from
 *       rank i) and unused elsewhere.</li>
 *   <li>{@link #ALLGATHER}: SEND is {@code b} bytes; RECV is {@code N*b} bytes on every rank, block i from rank i.</li>
 *   <li>{@link #ALLTOALL}: SEND is {@code N*b} bytes, block j is for rank j; RECV is {@code N*b}, block i from rank i.</li>
 *   <li>{@link #ALLREDUCE}: SEND is the {@code b}-byte vector; RECV is {@code b} bytes on every rank, the
 *       element-wise combination of every rank's SEND ({@code s0 op s1 op ... op s(N-1)}, in rank order when the
 *       shape is not {@link Shape#commutative()}).</li>
 *   <li>{@link #REDUCE}: SEND is the {@code b}-byte vector; RECV is {@code b} bytes on the root alone, the
 *       combination of every rank's SEND (in rank order when not commutative), and unused elsewhere.</li>
 *   <li>{@link #REDUCE_SCATTER}: equal blocks ({@code MPI_Reduce_scatter_block}): SEND is {@code N*b} bytes, block j
 *       for rank j; RECV is {@code b} bytes, on rank r the combination of every rank's SEND block r.</li>
 *   <li>{@link #SCAN}: SEND and RECV are {@code b} bytes; rank r's RECV is {@code s0 op s1 op ... op sr}.</li>
 *   <li>{@link #EXSCAN}: SEND and RECV are {@code b} bytes; rank r's RECV is {@code s0 op ... op s(r-1)}; rank 0's
 *       RECV is not written (MPI leaves it undefined).</li>
 *   <li>{@link #SCATTER}: SEND is {@code N*b} bytes on the root alone (block i for rank i); RECV is {@code b} bytes
 *       on every rank, the root's SEND block for that rank.</li>
 * </ul>
 * The v-variants ({@link #variable()}) have a {@link BlockCounts} in their shape ({@link Shape#counts()}) instead of
 * one block size; their buffers are packed, block i where block i-1 ends ({@link BlockCounts#offset}):
 * <ul>
 *   <li>{@link #GATHERV}: SEND is {@code c[rank]} bytes; the root's RECV holds every block, block i from rank i.</li>
 *   <li>{@link #SCATTERV}: the root's SEND holds every block; RECV is {@code c[rank]} bytes, the root's block rank.</li>
 *   <li>{@link #ALLGATHERV}: SEND is {@code c[rank]} bytes; every RECV holds every block, block i from rank i.</li>
 *   <li>{@link #ALLTOALLV}: a matrix {@code m[i][j]}: SEND is row {@code rank} (block j for rank j), RECV column
 *       {@code rank} (block i from rank i).</li>
 *   <li>{@link #REDUCE_SCATTERV} ({@code MPI_Reduce_scatter}): SEND holds every block on every rank; RECV is
 *       {@code c[rank]} bytes, the combination of every rank's SEND block rank.</li>
 * </ul>
 * Their uniform-size methods below ({@link #sendBytes(long, int, int, int)}, ...) describe every count equal to
 * {@code b}; {@link Shape#sendBytes(int)} and {@link Shape#recvBytes(int)} give a shape's real sizes.
 * The wire code is what frame headers carry so that ranks calling different collectives fail loudly.
 */
public enum Collective {
    BARRIER(1),
    BROADCAST(2),
    GATHER(3),
    ALLGATHER(4),
    ALLTOALL(5),
    ALLREDUCE(6),
    REDUCE(7),
    REDUCE_SCATTER(8),
    SCAN(9),
    EXSCAN(10),
    SCATTER(11),
    GATHERV(12),
    SCATTERV(13),
    ALLGATHERV(14),
    ALLTOALLV(15),
    REDUCE_SCATTERV(16);

    private final int wireCode;

    Collective(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /**
     * Lower-case name used in algorithm ids and on the command line ({@code allgather}, {@code reduce-scatter}); the
     * environment's {@code RAILCOLL_ALGORITHM_<NAME>} uses {@link #name()} ({@code REDUCE_SCATTER}).
     */
    public String id() {
        return IDS[ordinal()];
    }

    /** {@link #id()} of every constant, made once: ids are asked for on every call. */
    private static final String[] IDS = java.util.Arrays.stream(values())
            .map(c -> c.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).toArray(String[]::new);

    public static Collective fromWireCode(int code) {
        for (Collective c : values()) {
            if (c.wireCode == code) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown collective wire code " + code);
    }

    public static Collective fromId(String id) {
        for (Collective c : values()) {
            if (c.id().equals(id)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown collective '" + id + "'; known: "
                + java.util.Arrays.stream(values()).map(Collective::id).collect(java.util.stream.Collectors.joining(", ")));
    }

    /** Whether this collective combines data with an operator (its programs have Reduce steps). */
    public boolean reduces() {
        return switch (this) {
            case ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN, REDUCE_SCATTERV -> true;
            case BARRIER, BROADCAST, GATHER, ALLGATHER, ALLTOALL, SCATTER, GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV -> false;
        };
    }

    /**
     * Whether {@code rank}'s RECV receives a result. Every rank's does but an exscan's rank 0: MPI leaves its buffer
     * undefined, and railcoll leaves the caller's bytes as they were, so RECV staged on its way to the caller is not
     * copied back there.
     */
    public boolean writesRecv(int rank) {
        return !(this == EXSCAN && rank == 0);
    }

    /** Whether this is a v-variant: per-rank counts ({@link BlockCounts}) instead of one block size. */
    public boolean variable() {
        return switch (this) {
            case GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTERV -> true;
            default -> false;
        };
    }

    /** The collective with one block size that this v-variant generalises (itself for the others). */
    public Collective uniform() {
        return switch (this) {
            case GATHERV -> GATHER;
            case SCATTERV -> SCATTER;
            case ALLGATHERV -> ALLGATHER;
            case ALLTOALLV -> ALLTOALL;
            case REDUCE_SCATTERV -> REDUCE_SCATTER;
            default -> this;
        };
    }

    /** Whether a call names a root rank (broadcast, gather, reduce, scatter); the others run with root 0. */
    public boolean hasRoot() {
        return this == BROADCAST || this == GATHER || this == REDUCE || this == SCATTER || this == GATHERV
                || this == SCATTERV;
    }

    /** Bytes of the SEND buffer the rank that passes the most does, for block size {@code b} and {@code n} ranks. */
    public long sendBytes(long b, int n) {
        return switch (uniform()) {
            case BARRIER, BROADCAST -> 0;
            case GATHER, ALLGATHER, ALLREDUCE, REDUCE, SCAN, EXSCAN -> b;
            case ALLTOALL, REDUCE_SCATTER, SCATTER -> b * n;
            default -> throw new AssertionError(this);
        };
    }

    /** Bytes of the SEND buffer {@code rank} must provide (a scatter's non-roots send nothing). */
    public long sendBytes(long b, int n, int rank, int root) {
        return uniform() == SCATTER && rank != root ? 0 : sendBytes(b, n);
    }

    /** Bytes of the RECV buffer {@code rank} must provide. */
    public long recvBytes(long b, int n, int rank, int root) {
        return switch (uniform()) {
            case BARRIER -> 0;
            case BROADCAST, ALLREDUCE, REDUCE_SCATTER, SCAN, EXSCAN, SCATTER -> b;
            case REDUCE -> rank == root ? b : 0;
            case GATHER -> rank == root ? b * n : 0;
            case ALLGATHER, ALLTOALL -> b * n;
            default -> throw new AssertionError(this);
        };
    }
}
