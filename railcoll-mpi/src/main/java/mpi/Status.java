package mpi;

import java.util.Objects;

/**
 * What a completed operation reports (MPI_Status), as a snapshot: the source and tag a receive matched, its error, the
 * bytes it moved, whether it was cancelled, and for {@code waitAnyStatus}/{@code testAnyStatus}/{@code waitSomeStatus}/
 * {@code testSomeStatus} the request's index. A non-blocking collective's status is empty (source
 * {@code MPI.ANY_SOURCE}, tag {@code MPI.ANY_TAG}, no bytes), as Open MPI reports it. The setters change only this
 * snapshot. Point-to-point builds its statuses with {@link #of}.
 */
public final class Status {
    private int source;
    private int tag;
    private int error;
    private boolean cancelled;
    private long bytes;
    private int index;

    protected Status() {
        this(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, 0);
    }

    private Status(int source, int tag, int error, long bytes) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.bytes = bytes;
    }

    /** The status of an operation that matched no message (a collective, {@code MPI.REQUEST_NULL}). */
    static Status empty() {
        return new Status();
    }

    /** A receive's status: the matched {@code source} and {@code tag} and the {@code bytes} received (packed). */
    static Status of(int source, int tag, int error, long bytes) {
        return new Status(source, tag, error, bytes);
    }

    /** This status with {@code index} set, for the {@code *AnyStatus} and {@code *SomeStatus} methods. */
    Status withIndex(int index) {
        Status s = new Status(source, tag, error, bytes);
        s.cancelled = cancelled;
        s.index = index;
        return s;
    }

    /** Sets the index of this snapshot, not yet handed to the program, and returns it ({@code Operation.reportedStatus}). */
    Status setIndex(int index) {
        this.index = index;
        return this;
    }

    /** The bytes received (packed). */
    long bytes() {
        return bytes;
    }

    /** Marks this snapshot as the status of a cancelled receive. */
    void markCancelled() {
        cancelled = true;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }

    /** Whole elements of {@code datatype} received, or {@code MPI.UNDEFINED} if the bytes end inside one. */
    public int getCount(Datatype datatype) throws MPIException {
        MPI.check();
        long packed = Objects.requireNonNull(datatype, "datatype").map.packedBytes;
        if (packed == 0) {
            return 0;
        }
        return bytes % packed == 0 ? toInt(bytes / packed) : MPI.UNDEFINED;
    }

    /** Predefined elements received, counting those of a partial element of {@code datatype}; {@code MPI.UNDEFINED} if none fits. */
    public int getElements(Datatype datatype) throws MPIException {
        long n = elements(datatype);
        return n < 0 ? MPI.UNDEFINED : toInt(n);
    }

    public Count getElementsX(Datatype datatype) throws MPIException {
        long n = elements(datatype);
        return new Count(n < 0 ? MPI.UNDEFINED : n);
    }

    public boolean isCancelled() throws MPIException {
        MPI.check();
        return cancelled;
    }

    /** Sets the bytes of this snapshot to {@code count} elements of {@code datatype}. */
    public void setElements(Datatype datatype, int count) throws MPIException {
        setBytes(datatype, count);
    }

    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        setBytes(datatype, Objects.requireNonNull(count, "count").getCount());
    }

    public void setCancelled(boolean flag) throws MPIException {
        MPI.check();
        cancelled = flag;
    }

    private long elements(Datatype datatype) throws MPIException {
        MPI.check();
        return Objects.requireNonNull(datatype, "datatype").map.basicElements(bytes);
    }

    /** {@code count} predefined elements of {@code datatype} as bytes: whole elements of it, then leaves in order. */
    private void setBytes(Datatype datatype, long count) throws MPIException {
        MPI.check();
        TypeMap map = Objects.requireNonNull(datatype, "datatype").map;
        long perElement = map.basicElements(map.packedBytes);
        if (perElement <= 0) {
            bytes = 0;
            return;
        }
        // Elements are a whole number of the type's elements here; a partial one is counted as whole ones' share.
        bytes = count / perElement * map.packedBytes + count % perElement * (map.packedBytes / perElement);
    }

    private static int toInt(long n) {
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + ", index=" + index + "]";
    }
}
