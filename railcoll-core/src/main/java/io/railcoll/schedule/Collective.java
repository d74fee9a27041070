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
    SCATTER(11);

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
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

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
            case ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN -> true;
            case BARRIER, BROADCAST, GATHER, ALLGATHER, ALLTOALL, SCATTER -> false;
        };
    }

    /** Whether a call names a root rank (broadcast, gather, reduce, scatter); the others run with root 0. */
    public boolean hasRoot() {
        return this == BROADCAST || this == GATHER || this == REDUCE || this == SCATTER;
    }

    /** Bytes of the SEND buffer the rank that passes the most does, for block size {@code b} and {@code n} ranks. */
    public long sendBytes(long b, int n) {
        return switch (this) {
            case BARRIER, BROADCAST -> 0;
            case GATHER, ALLGATHER, ALLREDUCE, REDUCE, SCAN, EXSCAN -> b;
            case ALLTOALL, REDUCE_SCATTER, SCATTER -> b * n;
        };
    }

    /** Bytes of the SEND buffer {@code rank} must provide (a scatter's non-roots send nothing). */
    public long sendBytes(long b, int n, int rank, int root) {
        return this == SCATTER && rank != root ? 0 : sendBytes(b, n);
    }

    /** Bytes of the RECV buffer {@code rank} must provide. */
    public long recvBytes(long b, int n, int rank, int root) {
        return switch (this) {
            case BARRIER -> 0;
            case BROADCAST, ALLREDUCE, REDUCE_SCATTER, SCAN, EXSCAN, SCATTER -> b;
            case REDUCE -> rank == root ? b : 0;
            case GATHER -> rank == root ? b * n : 0;
            case ALLGATHER, ALLTOALL -> b * n;
        };
    }
}
