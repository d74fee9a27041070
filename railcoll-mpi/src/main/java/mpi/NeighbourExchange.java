package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The neighbourhood collectives (MPI_Neighbor_allgather, _allgatherv, _alltoall, _alltoallv, and their i-forms) of a
 * communicator with a topology: railcoll-core's non-blocking point-to-point on the topology's own communicator (a
 * dup made with it, so they never match the program's messages), one receive per source and one send per
 * destination, all posted before the call returns (receives first, so a message to this process itself lands
 * directly). The request finishes when every one of them has, and then puts each received block in place. The
 * blocking forms start the same operation and wait for it (decision 0124).
 *
 * <p>A block that arrives with fewer bytes than its slot expects is an {@code MPI.ERR_COUNT} error naming the
 * neighbour, one with more an {@code MPI.ERR_TRUNCATE}: the ranks passed counts that do not match.
 */
final class NeighbourExchange {
    /** What a communicator's neighbourhood collectives need: its neighbours in MPI's order and its own communicator. */
    record Neighbours(Neighbourhood order, Backend halo) {
    }

    /** Where one received block goes: {@code count} elements of {@code type} at element {@code first} of {@code buffer}. */
    private record Block(Transfer type, UserBuffer buffer, long first, long count) {
    }

    private NeighbourExchange() {
    }

    /** Starts the all-gather: {@code sendbuf} to every destination, block i of {@code recvbuf} from source i. */
    static Comm.Started allGather(Call c, Neighbours n, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        c.count(sendcount, "sendcount");
        c.count(recvcount, "recvcount");
        Transfer s = c.transfer(sendtype);
        Transfer r = c.transfer(recvtype);
        c.sameBytes(s, sendcount, r, recvcount);
        MemorySegment data = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
        MemorySegment[] sends = new MemorySegment[n.order().out()];
        java.util.Arrays.fill(sends, data);
        return start(c, n, sends, equalBlocks(r, r.buffer(recvbuf, (long) recvcount * n.order().in(), "recvbuf"),
                n.order().in(), recvcount));
    }

    /** Starts the all-gatherv: block i ({@code recvcount[i]} elements) lands at element {@code displs[i]}. */
    static Comm.Started allGatherv(Call c, Neighbours n, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        c.count(sendcount, "sendcount");
        int in = n.order().in();
        perSlot(c, "recvcount", recvcount, in, "sources");
        perSlot(c, "displs", displs, in, "sources");
        Transfer s = c.transfer(sendtype);
        Transfer r = c.transfer(recvtype);
        MemorySegment data = s.send(s.buffer(sendbuf, sendcount, "sendbuf"), 0, sendcount);
        MemorySegment[] sends = new MemorySegment[n.order().out()];
        java.util.Arrays.fill(sends, data);
        UserBuffer out = r.buffer(recvbuf, span(recvcount, displs), "recvbuf");
        Block[] recvs = new Block[in];
        for (int i = 0; i < in; i++) {
            recvs[i] = new Block(r, out, displs[i], recvcount[i]);
        }
        return start(c, n, sends, recvs);
    }

    /** Starts the all-to-all: block i of {@code sendbuf} to destination i, block i of {@code recvbuf} from source i. */
    static Comm.Started allToAll(Call c, Neighbours n, Object sendbuf, int sendcount, Datatype sendtype,
            Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
        c.count(sendcount, "sendcount");
        c.count(recvcount, "recvcount");
        Transfer s = c.transfer(sendtype);
        Transfer r = c.transfer(recvtype);
        c.sameBytes(s, sendcount, r, recvcount);
        UserBuffer from = s.buffer(sendbuf, (long) sendcount * n.order().out(), "sendbuf");
        MemorySegment[] sends = new MemorySegment[n.order().out()];
        for (int i = 0; i < sends.length; i++) {
            sends[i] = s.send(from, (long) i * sendcount, sendcount);
        }
        return start(c, n, sends, equalBlocks(r, r.buffer(recvbuf, (long) recvcount * n.order().in(), "recvbuf"),
                n.order().in(), recvcount));
    }

    /** Starts the all-to-allv: per-destination and per-source counts and displacements (in extents). */
    static Comm.Started allToAllv(Call c, Neighbours n, Object sendbuf, int[] sendcount, int[] sdispls,
            Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        int outs = n.order().out();
        int in = n.order().in();
        perSlot(c, "sendcount", sendcount, outs, "destinations");
        perSlot(c, "sdispls", sdispls, outs, "destinations");
        perSlot(c, "recvcount", recvcount, in, "sources");
        perSlot(c, "rdispls", rdispls, in, "sources");
        Transfer s = c.transfer(sendtype);
        Transfer r = c.transfer(recvtype);
        UserBuffer from = s.buffer(sendbuf, span(sendcount, sdispls), "sendbuf");
        MemorySegment[] sends = new MemorySegment[outs];
        for (int i = 0; i < outs; i++) {
            sends[i] = s.send(from, sdispls[i], sendcount[i]);
        }
        UserBuffer out = r.buffer(recvbuf, span(recvcount, rdispls), "recvbuf");
        Block[] recvs = new Block[in];
        for (int i = 0; i < in; i++) {
            recvs[i] = new Block(r, out, rdispls[i], recvcount[i]);
        }
        return start(c, n, sends, recvs);
    }

    /** Receive block i of {@code count} elements at element {@code i * count} of {@code out}, for {@code in} sources. */
    private static Block[] equalBlocks(Transfer r, UserBuffer out, int in, int count) {
        Block[] recvs = new Block[in];
        for (int i = 0; i < in; i++) {
            recvs[i] = new Block(r, out, (long) i * count, count);
        }
        return recvs;
    }

    /**
     * Posts a receive for every source that is not {@code PROC_NULL}, then a send of {@code sends[i]} to every such
     * destination; the operation finishes when all have, its finishing work checks each block's size and puts it in
     * place. Every argument was checked before anything is posted.
     */
    private static Comm.Started start(Call c, Neighbours n, MemorySegment[] sends, Block[] recvs) {
        Neighbourhood order = n.order();
        List<Pending> all = new ArrayList<>();
        List<Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < recvs.length; i++) {
            int source = order.sources()[i];
            if (source == MPI.PROC_NULL) {
                continue;
            }
            Block b = recvs[i];
            MemorySegment area = b.type().recvArea(b.buffer(), b.first(), b.count());
            Pending p = n.halo().irecv(area, source, order.recvTags()[i]);
            all.add(p);
            arrivals.add(new Arrival(i, source, p, area, b));
        }
        for (int i = 0; i < sends.length; i++) {
            int dest = order.destinations()[i];
            if (dest != MPI.PROC_NULL) {
                all.add(n.halo().isend(sends[i], dest, order.sendTags()[i], false));
            }
        }
        return new Comm.Started(new AllOf(all), () -> {
            for (Arrival a : arrivals) {
                a.deliver(c);
            }
        });
    }

    /** A receive posted for source slot {@code slot}, to be checked and put in place when it has finished. */
    private record Arrival(int slot, int source, Pending pending, MemorySegment area, Block block) {
        void deliver(Call c) throws MPIException {
            long got = pending.status().bytes();
            long want = block.type().bytes(block.count());
            if (got != want) {
                throw c.error(MPI.ERR_COUNT, "invalid count: neighbour " + slot + " (rank " + source + ") sent " + got
                        + " bytes where this rank expects " + want + " (" + block.count() + " elements of "
                        + block.type().type.describe() + "): the ranks' counts do not match");
            }
            block.type().deliver(area, block.buffer(), block.first(), block.count());
        }
    }

    /** Finished when every one of its operations has; waits for them in order. */
    private static final class AllOf implements Pending {
        private final List<Pending> parts;
        private final boolean[] finished;

        AllOf(List<Pending> parts) {
            this.parts = parts;
            this.finished = new boolean[parts.size()];
        }

        @Override
        public boolean test() {
            boolean all = true;
            for (int i = 0; i < finished.length; i++) {
                if (!finished[i]) {
                    finished[i] = parts.get(i).test();
                    all &= finished[i];
                }
            }
            return all;
        }

        @Override
        public void await() {
            for (int i = 0; i < finished.length; i++) {
                if (!finished[i]) {
                    parts.get(i).await();
                    finished[i] = true;
                }
            }
        }
    }

    /** An {@code MPI.ERR_ARG} error unless {@code values} has one entry per slot, {@code MPI.ERR_COUNT} for a negative one. */
    static void perSlot(Call c, String what, int[] values, int slots, String of) throws MPIException {
        if (values == null || values.length != slots) {
            throw c.error(MPI.ERR_ARG, "invalid argument: " + what + " must have " + slots + " entries, one per "
                    + of.substring(0, of.length() - 1) + " of this process, not "
                    + (values == null ? "null" : values.length));
        }
        for (int i = 0; i < slots; i++) {
            if (values[i] < 0) {
                throw c.error(MPI.ERR_COUNT, "invalid count: " + what + "[" + i + "] is " + values[i]);
            }
        }
    }

    /** The elements a v-form's buffer spans: the end of its furthest non-empty block. */
    private static long span(int[] counts, int[] displs) {
        long end = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                end = Math.max(end, (long) displs[i] + counts[i]);
            }
        }
        return end;
    }
}
