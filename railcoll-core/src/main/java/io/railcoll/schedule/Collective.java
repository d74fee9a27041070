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
 * </ul>
 * The wire code is what frame headers carry so that ranks calling different collectives fail loudly.
 */
public enum Collective {
    BARRIER(1),
    BROADCAST(2),
    GATHER(3),
    ALLGATHER(4),
    ALLTOALL(5),
    ALLREDUCE(6);

    private final int wireCode;

    Collective(int wireCode) {
        this.wireCode = wireCode;
    }

    public int wireCode() {
        return wireCode;
    }

    /** Lower-case name used in algorithm ids and on the command line ({@code allgather}). */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
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
        throw new IllegalArgumentException("unknown collective '" + id + "'; known: barrier, broadcast, gather, allgather, alltoall, allreduce");
    }

    /** Whether this collective combines data with an operator (its programs have Reduce steps). */
    public boolean reduces() {
        return this == ALLREDUCE;
    }

    /** Bytes of the SEND buffer a rank passes, for block size {@code b} and {@code n} ranks. */
    public long sendBytes(long b, int n) {
        return switch (this) {
            case BARRIER, BROADCAST -> 0;
            case GATHER, ALLGATHER, ALLREDUCE -> b;
            case ALLTOALL -> b * n;
        };
    }

    /** Bytes of the RECV buffer {@code rank} must provide. */
    public long recvBytes(long b, int n, int rank, int root) {
        return switch (this) {
            case BARRIER -> 0;
            case BROADCAST, ALLREDUCE -> b;
            case GATHER -> rank == root ? b * n : 0;
            case ALLGATHER, ALLTOALL -> b * n;
        };
    }
}
