package io.railcoll;

import io.railcoll.bootstrap.Handshake;
import io.railcoll.bootstrap.JobTable;
import io.railcoll.engine.CollectiveEngine;
import io.railcoll.engine.ProgressHook;
import io.railcoll.transport.MulticastStream;
import io.railcoll.transport.mcast.ControlMux;
import io.railcoll.transport.mcast.MulticastBroadcast;
import io.railcoll.transport.mcast.MulticastGroup;
import io.railcoll.transport.mcast.MulticastSettings;
import io.railcoll.transport.mcast.TcpControlLink;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * The multicast group of one communicator, offered to the engine as its {@link MulticastStream} capability
 * (decision 0146): programs' Multicast ops ({@code broadcast.multicast}, {@code allgather.smp-gather-mcast}) run on
 * it. Every rank is a member of one multicast group on
 * rail {@code RAILCOLL_MCAST_RAIL}. Opened by the first multicast broadcast (or at start-up with
 * {@code RAILCOLL_MCAST=on}), collectively: every rank listens for control connections on its rail-0 address, the
 * ports are exchanged by an all-gather over the communicator, the authenticated control mesh
 * ({@link TcpControlLink}, one {@link ControlMux} channel) is connected on a helper thread while the engine keeps
 * the rails moving, and the group is joined. From then on the component is the engine's {@link ProgressHook}, so it
 * keeps serving its peers (re-sends, synchronizations) while this rank waits in any other collective, and every wait
 * of its own runs in the engine's progress loop. Closed (a final synchronization, then the socket and the control
 * mesh) before the rails. Owner thread only; control-link arrivals wake the engine from the reader threads.
 */
final class MulticastBroadcaster implements MulticastStream, ProgressHook, AutoCloseable {
    private static final int CHANNEL = 0;

    private final int rank;
    private final JobTable table;
    private final String jobId;
    private final Handshake handshake;
    private final CollectiveEngine engine;
    private final MulticastSettings settings;
    private final int rail;
    private final long connectTimeoutNs;
    private final PrintStream log;
    /** Runs an all-gather of one equal block per rank over the communicator: this rank's block in, all blocks out. */
    private final UnaryOperator<byte[]> allgather;
    private TcpControlLink link;
    private ControlMux.Channel channel;
    private MulticastBroadcast mc;
    private final java.util.function.BooleanSupplier done = () -> mc.isDone();

    MulticastBroadcaster(int rank, JobTable table, String jobId, Handshake handshake, CollectiveEngine engine,
                         MulticastSettings settings, int rail, long connectTimeoutNs, PrintStream log,
                         UnaryOperator<byte[]> allgather) {
        if (rail >= table.rails()) {
            throw new IllegalArgumentException("RAILCOLL_MCAST_RAIL=" + rail + " but this job has " + table.rails()
                    + " rail(s) (0.." + (table.rails() - 1) + ")");
        }
        this.rank = rank;
        this.table = table;
        this.jobId = jobId;
        this.handshake = handshake;
        this.engine = engine;
        this.settings = settings;
        this.rail = rail;
        this.connectTimeoutNs = connectTimeoutNs;
        this.log = log;
        this.allgather = allgather;
    }

    boolean isOpen() {
        return mc != null;
    }

    /** Joins the group (collective); a no-op once open. */
    void open() {
        if (mc != null) {
            return;
        }
        InetAddress controlAddress = table.rank(rank).railEndpoints().get(0).getAddress();
        try {
            TcpControlLink.Listening listening = TcpControlLink.listen(handshake, rank, new InetSocketAddress(controlAddress, 0), log);
            byte[] ports;
            try {
                ports = allgather.apply(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(listening.address().getPort()).array());
            } catch (RuntimeException e) {
                listening.close();
                throw e;
            }
            Map<Integer, InetSocketAddress> endpoints = new HashMap<>();
            ByteBuffer b = ByteBuffer.wrap(ports).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < table.size(); r++) {
                endpoints.put(r, new InetSocketAddress(table.rank(r).railEndpoints().get(0).getAddress(), b.getInt(4 * r)));
            }
            // Connecting blocks; the owner keeps driving the rails meanwhile, since a peer may still await them.
            CompletableFuture<TcpControlLink> connecting = CompletableFuture.supplyAsync(() -> {
                try {
                    return listening.connect(endpoints, connectTimeoutNs / 1_000_000);
                } catch (IOException e) {
                    throw new RailcollException("rank " + rank + ": control links of broadcast.multicast not connected: "
                            + e.getMessage(), e);
                }
            }, r -> Thread.ofPlatform().daemon().name("railcoll-mcast-connect-" + rank).start(r));
            try {
                engine.awaitHook(connecting::isDone, () -> "connecting the control links of broadcast.multicast");
                link = connecting.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : e;
            }
            channel = new ControlMux(link).channel(CHANNEL);
            int[] members = new int[table.size()];
            for (int r = 0; r < members.length; r++) {
                members[r] = r;
            }
            InetAddress railAddress = table.rank(rank).railEndpoints().get(rail).getAddress();
            MulticastGroup group = MulticastGroup.derive(jobId, CHANNEL, members, rank, railAddress);
            mc = MulticastBroadcast.create(group, settings, channel, log::println, engine::wake);
            engine.setProgressHook(this);
            mc.postJoin();
            await(() -> "joining multicast group " + group);
            engine.setMulticast(this);
        } catch (IOException e) {
            closeQuietly();
            throw new RailcollException("rank " + rank + ": cannot open broadcast.multicast: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly();
            throw e;
        }
    }

    /**
     * Starts the delivery of a program's Multicast op (the engine's {@link MulticastStream}): {@code length} bytes of
     * {@code buffer} at {@code offset} from {@code root}. The group is open (the communicator opens it before it
     * starts a call that multicasts).
     */
    @Override
    public void post(MemorySegment buffer, long offset, long length, int root) {
        mc.postBroadcast(offset == 0 && length == buffer.byteSize() ? buffer : buffer.asSlice(offset, length), root);
    }

    @Override
    public boolean delivered() {
        return mc.isDone();
    }

    private void await(java.util.function.Supplier<String> what) {
        engine.awaitHook(done, what);
    }

    @Override
    public int doWork() {
        return mc.doWork();
    }

    @Override
    public void awaitInput(long maxWaitNs) {
        mc.awaitInput(maxWaitNs);
    }

    /** The final synchronization (collective, so nobody leaves while others need it), then the socket and links. */
    @Override
    public void close() {
        if (mc == null) {
            return;
        }
        try {
            if (mc.failure() == null && engine.failure() == null) {
                mc.postFlush();
                await(() -> "final synchronization of broadcast.multicast on " + mc.group());
            }
        } finally {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        engine.setMulticast(null);
        engine.setProgressHook(null);
        if (mc != null) {
            mc.closeSocket();
        }
        if (channel != null) {
            channel.close();
        }
        mc = null;
        channel = null;
        TcpControlLink l = link;
        link = null;
        if (l != null) {
            l.close();
        }
    }
}
