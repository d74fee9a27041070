package mpi;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * {@code allToAllw}: block j of the send buffer ({@code sendCount[j]} elements of {@code sendTypes[j]} from byte
 * {@code sDispls[j]}) goes to rank j, where it lands at byte {@code rDispls[i]} as {@code recvCount[i]} elements of
 * {@code recvTypes[i]}, i being the sender. Carried out as {@code allToAllv} is: an all-reduce of the largest block
 * any rank sends or receives, then railcoll's all-to-all of blocks padded to it, each packed by its own type. The
 * non-blocking form ({@link #start}) is an all-to-allv of the exact sizes instead (decision 0109).
 */
final class AllToAllw {
    private AllToAllw() {
    }

    static void run(Call c, Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Object recvBuf,
                    int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        Checked a = check(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes);
        Transfer[] s = a.s();
        Transfer[] r = a.r();
        UserBuffer in = a.in();
        UserBuffer out = a.out();
        long mine = 0;
        for (int i = 0; i < c.size; i++) {
            mine = Math.max(mine, Math.max(s[i].bytes(sendCount[i]), r[i].bytes(recvCount[i])));
        }
        MemorySegment largest = c.staging.take(8);
        largest.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, mine);
        c.backend.allreduce(largest, largest, ElementType.LONG, 1, PredefinedOperator.MAX);
        long block = largest.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        MemorySegment send = c.staging.take(block * c.size);
        for (int j = 0; j < c.size; j++) {
            sendTypes[j].map.pack(in.memory, sDispls[j], sendCount[j], send, j * block);
        }
        MemorySegment recv = c.staging.take(block * c.size);
        c.backend.alltoall(send, recv);
        for (int i = 0; i < c.size; i++) {
            recvTypes[i].map.unpack(recv, i * block, recvCount[i], out.memory, rDispls[i]);
        }
        out.commit();
    }

    /**
     * The non-blocking form: an all-to-allv of the exact block sizes, started at once (decision 0109). Every block is
     * packed by its send type into the request's memory now; each received block is unpacked by its receive type
     * when the request finishes.
     */
    static Comm.Started start(Call c, Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                              Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        Checked a = check(c, sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes);
        Transfer[] s = a.s();
        Transfer[] r = a.r();
        UserBuffer in = a.in();
        UserBuffer out = a.out();
        long[] sendBytes = new long[c.size];
        long[] recvBytes = new long[c.size];
        long sendAll = 0;
        long recvAll = 0;
        for (int i = 0; i < c.size; i++) {
            sendBytes[i] = s[i].bytes(sendCount[i]);
            recvBytes[i] = r[i].bytes(recvCount[i]);
            sendAll += sendBytes[i];
            recvAll += recvBytes[i];
        }
        MemorySegment send = c.staging.take(Math.max(1, sendAll)).asSlice(0, sendAll);
        long at = 0;
        for (int j = 0; j < c.size; j++) {
            sendTypes[j].map.pack(in.memory, sDispls[j], sendCount[j], send, at);
            at += sendBytes[j];
        }
        MemorySegment recv = c.staging.take(Math.max(1, recvAll)).asSlice(0, recvAll);
        Datatype[] types = recvTypes.clone();
        int[] counts = recvCount.clone();
        int[] displs = rDispls.clone();
        return new Comm.Started(c.backend.ialltoallv(send, sendBytes, recv, recvBytes), () -> {
            long from = 0;
            for (int i = 0; i < counts.length && i < recvBytes.length; i++) {
                types[i].map.unpack(recv, from, counts[i], out.memory, displs[i]);
                from += recvBytes[i];
            }
            out.commit();
        });
    }

    /** The arguments of both forms, checked: every block's type and place, and this rank's block to itself. */
    private record Checked(Transfer[] s, Transfer[] r, UserBuffer in, UserBuffer out) {
    }

    private static Checked check(Call c, Object sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                 Object recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        c.vector(sendCount, sDispls);
        c.vector(recvCount, rDispls);
        Transfer[] s = transfers(c, sendTypes, "sendTypes");
        Transfer[] r = transfers(c, recvTypes, "recvTypes");
        c.sameBytes(s[c.rank], sendCount[c.rank], r[c.rank], recvCount[c.rank]);
        return new Checked(s, r, view(c, sendBuf, sendCount, sDispls, sendTypes, "sendBuf"),
                view(c, recvBuf, recvCount, rDispls, recvTypes, "recvBuf"));
    }

    private static Transfer[] transfers(Call c, Datatype[] types, String what) throws MPIException {
        Objects.requireNonNull(types, what);
        if (types.length < c.size) {
            throw c.error(MPI.ERR_ARG, "invalid argument: " + types.length + " " + what + " for " + c.size + " ranks");
        }
        Transfer[] t = new Transfer[c.size];
        for (int i = 0; i < c.size; i++) {
            t[i] = c.transfer(types[i]);
        }
        return t;
    }

    /** The buffer as bytes, every block of it checked: its type's storage, inside the buffer. */
    private static UserBuffer view(Call c, Object buffer, int[] counts, int[] displs, Datatype[] types, String role)
            throws MPIException {
        UserBuffer b = null;
        for (int i = 0; i < c.size; i++) {
            if (counts[i] == 0) {
                continue;
            }
            if (b == null) {
                b = UserBuffer.of(buffer, types[i], counts[i], role, c);
            } else if (!types[i].baseType.holds(buffer)) {
                throw c.error(MPI.ERR_BUFFER, "invalid buffer: " + role + " is a " + buffer.getClass().getSimpleName()
                        + " but block " + i + "'s " + types[i].describe() + " lives in " + types[i].baseType.storage());
            }
            long first = displs[i] + types[i].map.firstByte(counts[i]);
            long end = displs[i] + types[i].map.endByte(counts[i]);
            if (first < 0 || end > b.memory.byteSize()) {
                throw new IndexOutOfBoundsException(c.name + " on rank " + c.rank + ": " + role + ": block " + i + ", "
                        + counts[i] + " elements of " + types[i].describe() + " from byte " + displs[i] + ", needs bytes ["
                        + first + ", " + end + ") of the buffer, which has " + b.memory.byteSize());
            }
        }
        return b != null ? b : UserBuffer.of(null, MPI.BYTE, 0, role, c);
    }
}
