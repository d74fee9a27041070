package io.railcoll.bench.apps;

import io.railcoll.Communicator;
import io.railcoll.RailcollException;
import io.railcoll.schedule.Collective;
import io.railcoll.topology.Placement;
import io.railcoll.transport.RailCounters;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A test double: {@code n} communicators in one JVM, one thread per rank, whose barrier, all-gather and all-to-all
 * move bytes through shared memory with a {@link CyclicBarrier}. Like the real communicator it refuses heap
 * segments over non-byte arrays, so the apps' staging is exercised too. Lets the apps' parallel logic run in
 * milliseconds without processes; the system tests run the real thing.
 */
final class InProcessGroup {
    private final int size;
    private final CyclicBarrier barrier;
    private final MemorySegment[] posted;

    private InProcessGroup(int size) {
        this.size = size;
        this.barrier = new CyclicBarrier(size);
        this.posted = new MemorySegment[size];
    }

    /** Runs {@code body} on {@code n} ranks at once and returns each rank's result, in rank order. */
    static <T> List<T> run(int n, Function<Communicator, T> body) {
        InProcessGroup g = new InProcessGroup(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                Member m = g.new Member(r);
                futures.add(pool.submit(() -> body.apply(m)));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } catch (ExecutionException e) {
            throw new AssertionError("a rank failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("ranks did not finish", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private void await() {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new RailcollException("in-process barrier failed: " + e);
        }
    }

    /** What {@code comm} (a member) ran so far: one entry per all-gather, {@code "<algorithm> <block bytes>"}. */
    static List<String> allgatherLog(Communicator comm) {
        return ((Member) comm).log;
    }

    private final class Member implements Communicator {
        private final int rank;
        private final List<String> log = new ArrayList<>();
        private String forced;

        Member(int rank) {
            this.rank = rank;
        }

        private void requireTransportable(MemorySegment s) {
            if (!Staging.direct(s)) {
                throw new IllegalArgumentException("a heap segment must be backed by a byte[]");
            }
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public Placement placement() {
            return Placement.singleNode(size);
        }

        @Override
        public int rails() {
            return 1;
        }

        @Override
        public RailCounters railCounters() {
            return new RailCounters(1);
        }

        @Override
        public void forceAlgorithm(String id) {
            forced = id;
        }

        @Override
        public void clearForcedAlgorithm(Collective collective) {
            forced = null;
        }

        @Override
        public String selectedAlgorithm(Collective collective, long blockBytes, int root) {
            return collective.id() + ".in-process";
        }

        @Override
        public void barrier() {
            await();
        }

        @Override
        public void allgather(MemorySegment send, MemorySegment recv) {
            requireTransportable(send);
            requireTransportable(recv);
            long b = send.byteSize();
            log.add((forced == null ? "auto" : forced) + " " + b);
            posted[rank] = send;
            await();
            for (int r = 0; r < size; r++) {
                MemorySegment.copy(posted[r], 0, recv, r * b, b);
            }
            await();
        }

        @Override
        public void allgather(MemorySegment buffer, long blockBytes) {
            requireTransportable(buffer);
            log.add((forced == null ? "auto" : forced) + " " + blockBytes + " in place");
            posted[rank] = buffer.asSlice(rank * blockBytes, blockBytes);
            await();
            for (int r = 0; r < size; r++) {
                if (r != rank) {
                    MemorySegment.copy(posted[r], 0, buffer, r * blockBytes, blockBytes);
                }
            }
            await();
        }

        @Override
        public void alltoall(MemorySegment send, MemorySegment recv) {
            requireTransportable(send);
            requireTransportable(recv);
            long b = send.byteSize() / size;
            posted[rank] = send;
            await();
            for (int r = 0; r < size; r++) {
                MemorySegment.copy(posted[r], rank * b, recv, r * b, b);
            }
            await();
        }

        @Override
        public void allgather(byte[] send, byte[] recv) {
            allgather(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
        }

        @Override
        public void allgather(ByteBuffer send, ByteBuffer recv) {
            allgather(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
        }

        @Override
        public void alltoall(byte[] send, byte[] recv) {
            alltoall(MemorySegment.ofArray(send), MemorySegment.ofArray(recv));
        }

        @Override
        public void alltoall(ByteBuffer send, ByteBuffer recv) {
            alltoall(MemorySegment.ofBuffer(send), MemorySegment.ofBuffer(recv));
        }

        @Override
        public void gatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs, int root) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public void scatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv, int root) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public void allgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public void alltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls, MemorySegment recv,
                              long[] recvCounts, long[] recvDispls) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public void reduceScatter(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                  long[] recvCounts, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request igatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs,
                                            int root) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request iscatterv(MemorySegment send, long[] counts, long[] displs, MemorySegment recv,
                                             int root) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request iallgatherv(MemorySegment send, MemorySegment recv, long[] counts, long[] displs) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request ialltoallv(MemorySegment send, long[] sendCounts, long[] sendDispls,
                                              MemorySegment recv, long[] recvCounts, long[] recvDispls) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request ireduceScatter(MemorySegment send, MemorySegment recv,
                                                  io.railcoll.reduce.ElementType type, long[] recvCounts,
                                                  io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not call the v-variants");
        }

        @Override
        public io.railcoll.Request ibarrier() {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request ibroadcast(MemorySegment buffer, int root) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request igather(MemorySegment send, MemorySegment recv, int root) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iallgather(MemorySegment send, MemorySegment recv) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iallgather(MemorySegment buffer, long blockBytes) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request ialltoall(MemorySegment send, MemorySegment recv) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iallreduce(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                              long count, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public io.railcoll.Request iallreduce(MemorySegment buffer, io.railcoll.reduce.ElementType type, long count,
                                              io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type, long count, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(MemorySegment buffer, io.railcoll.reduce.ElementType type, long count, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(int[] send, int[] recv, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(long[] send, long[] recv, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(float[] send, float[] recv, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void allreduce(double[] send, double[] recv, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not all-reduce");
        }

        @Override
        public void reduce(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type, long count,
                           io.railcoll.reduce.Operator op, int root) {
            throw new UnsupportedOperationException("the apps do not reduce");
        }

        @Override
        public void reduceScatterBlock(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                       long recvCount, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not reduce-scatter");
        }

        @Override
        public void scan(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type, long count,
                         io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not scan");
        }

        @Override
        public void exscan(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type, long count,
                           io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps do not scan");
        }

        @Override
        public io.railcoll.Request ireduce(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                           long count, io.railcoll.reduce.Operator op, int root) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request ireduceScatterBlock(MemorySegment send, MemorySegment recv,
                                                       io.railcoll.reduce.ElementType type, long recvCount,
                                                       io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iscan(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                         long count, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iexscan(MemorySegment send, MemorySegment recv, io.railcoll.reduce.ElementType type,
                                           long count, io.railcoll.reduce.Operator op) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public io.railcoll.Request iscatter(MemorySegment send, MemorySegment recv, int root) {
            throw new UnsupportedOperationException("the apps run only blocking collectives");
        }

        @Override
        public void scatter(MemorySegment send, MemorySegment recv, int root) {
            throw new UnsupportedOperationException("the apps do not scatter");
        }

        @Override
        public void broadcast(MemorySegment buffer, int root) {
            throw new UnsupportedOperationException("the apps do not broadcast");
        }

        @Override
        public void broadcast(byte[] buffer, int root) {
            throw new UnsupportedOperationException("the apps do not broadcast");
        }

        @Override
        public void broadcast(ByteBuffer buffer, int root) {
            throw new UnsupportedOperationException("the apps do not broadcast");
        }

        @Override
        public void gather(MemorySegment send, MemorySegment recv, int root) {
            throw new UnsupportedOperationException("the apps do not gather");
        }

        @Override
        public void gather(byte[] send, byte[] recv, int root) {
            throw new UnsupportedOperationException("the apps do not gather");
        }

        @Override
        public void gather(ByteBuffer send, ByteBuffer recv, int root) {
            throw new UnsupportedOperationException("the apps do not gather");
        }

        @Override
        public Optional<RailcollException> failure() {
            return Optional.empty();
        }

        @Override
        public void close() {
        }
    }
}
