package io.railcoll.transport.shm;

import io.railcoll.memory.Doorbell;
import io.railcoll.memory.Idler;
import io.railcoll.memory.SharedAccess;
import io.railcoll.memory.WaitStrategy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A node's shared-memory region as seen by one local rank: a file
 * {@code /dev/shm/railcoll-<jobId>-n<nodeId>} mapped by every rank of the node through the FFM
 * API, holding doorbells, a ring per ordered pair of local ranks and the node buffer (see
 * {@link RegionLayout} for offsets and {@link RegionHeader} for the header).
 *
 * <h2>Life cycle</h2>
 * <ol>
 *   <li>Local rank 0 creates the file exclusively (mode 0600), replacing a stale one whose creator
 *       has exited or that belongs to another job (said on stderr), maps it, writes the header and
 *       publishes the header's ready word last, with a release store.</li>
 *   <li>The other local ranks wait (polling, at most {@link ShmConfig#attachTimeoutNs}) for a ready
 *       region of this job and node with a live creator, check its layout against their own
 *       configuration, and map it.</li>
 *   <li>Every rank records its pid, start time and mapping address in its attach slot and marks
 *       itself attached; then all wait until every local rank is attached. Start-up is
 *       all-or-nothing: if any of this fails, the rank releases what it took and throws.</li>
 *   <li>As soon as every rank is attached, local rank 0 unlinks the file: the mappings stay valid,
 *       and a job killed later leaves nothing behind in {@code /dev/shm}. A job killed during
 *       start-up can leave a file; {@link #removeStale} (for launchers) or the next creator of
 *       that name removes it.</li>
 *   <li>{@link #close} marks the rank detached (peers waiting on it fail at once with
 *       {@code PEER_LOST} rather than at their deadline), unlinks the file if local rank 0 has not
 *       yet, and unmaps.</li>
 * </ol>
 *
 * <p><b>Engine use.</b> The engine's waiting thread sleeps on {@link #ownDoorbell()} through an
 * {@link #newIdler() idler}; shared-memory senders on this node (via the channels and node
 * steps) and this process's TCP progress threads ring it after handing it work.
 *
 * <p>Threading: {@link #open} and {@link #close} by one thread; the accessors are thread-safe;
 * the objects handed out state their own contracts. Close only after every thread stopped using
 * the channels, node steps and doorbells: closing unmaps the memory they point into.
 */
public final class NodeRegion implements AutoCloseable {
    private final String jobId;
    private final int nodeId;
    private final int localRank;
    private final int localSize;
    private final RegionLayout layout;
    private final Path path;
    private final WaitStrategy waitStrategy;
    private final Arena arena;
    private final MemorySegment segment;
    private final boolean creator;
    private final long pid;
    private final Doorbell[] doorbells;
    private final PeerWatch peers;
    private final ShmChannel[] outbound;
    private final ShmChannel[] inbound;
    private final NodeStepArea stepArea;
    private boolean unlinked;
    private boolean startedUp;
    private boolean closed;

    /**
     * Creates (local rank 0) or attaches to (others) the region of {@code jobId}'s node
     * {@code nodeId}, and returns once all {@code localSize} ranks are attached.
     *
     * @throws ShmException {@code TIMED_OUT} if the creator or some rank does not show up in
     *         time, {@code MISMATCH} if the region's layout differs from {@code config},
     *         {@code REGION} if the file is held by a live process of this job or cannot be made,
     *         {@code PEER_LOST} if a rank dies or leaves during start-up
     */
    public static NodeRegion open(String jobId, int nodeId, int localRank, int localSize, ShmConfig config) {
        Objects.requireNonNull(config, "config");
        if (localRank < 0 || localRank >= localSize) {
            throw new IllegalArgumentException("local rank " + localRank + " outside [0, " + localSize + ")");
        }
        RegionLayout layout = new RegionLayout(localSize, config.ringBytes());
        Path path = RegionFiles.path(config.directory(), jobId, nodeId);
        String who = "job " + jobId + ", node " + nodeId + ", local rank " + localRank;
        long startNs = System.nanoTime();
        long pid = Processes.currentPid();
        RegionFiles.Mapping mapping = localRank == 0
                ? RegionFiles.create(path, RegionHeader.of(jobId, nodeId, pid, Processes.currentStartMillis(), layout), who)
                : RegionFiles.attach(path, RegionHeader.of(jobId, nodeId, 0, 0, layout), startNs,
                        config.attachTimeoutNs(), who);
        return new NodeRegion(jobId, nodeId, localRank, layout, path, config, mapping, pid, who, startNs);
    }

    /**
     * Removes region files in {@code /dev/shm} of jobs whose id starts with
     * {@code jobIdPrefixOrAll} (every railcoll region if null or empty) whose creator has exited:
     * for a launcher after killing a job. Regions of live jobs are left alone.
     *
     * @return the removed files
     */
    public static List<Path> removeStale(String jobIdPrefixOrAll) {
        return removeStale(ShmConfig.DEFAULT_DIRECTORY, jobIdPrefixOrAll);
    }

    /** {@link #removeStale(String)} in another directory. */
    public static List<Path> removeStale(Path directory, String jobIdPrefixOrAll) {
        return RegionFiles.removeStale(directory, jobIdPrefixOrAll);
    }

    /** The file name a job's node region gets in {@code directory}. */
    public static Path pathOf(Path directory, String jobId, int nodeId) {
        return RegionFiles.path(directory, jobId, nodeId);
    }

    private NodeRegion(String jobId, int nodeId, int localRank, RegionLayout layout, Path path, ShmConfig config,
                       RegionFiles.Mapping mapping, long pid, String who, long startNs) {
        this.jobId = jobId;
        this.nodeId = nodeId;
        this.localRank = localRank;
        this.localSize = layout.localSize();
        this.layout = layout;
        this.path = path;
        this.waitStrategy = config.waitStrategyFor(localSize);
        this.arena = mapping.arena();
        this.segment = mapping.segment();
        this.creator = localRank == 0;
        this.pid = pid;
        try {
            register(who);
            ProcessHandle[] handles = awaitAllAttached(who, startNs, config.attachTimeoutNs());
            if (creator) {
                // Every rank has it mapped now; the name is no longer needed, and without it a
                // killed job leaves nothing in /dev/shm.
                unlinked = RegionFiles.deleteIfCreatedBy(path, pid);
            }
            long[] pids = new long[localSize];
            for (int r = 0; r < localSize; r++) {
                pids[r] = attachWord(r, RegionLayout.ATTACH_PID);
            }
            this.peers = new PeerWatch(segment, layout, handles, pids, localRank, who);
            this.doorbells = new Doorbell[localSize];
            for (int r = 0; r < localSize; r++) {
                doorbells[r] = new Doorbell(segment, layout.doorbell(r));
            }
            this.outbound = new ShmChannel[localSize];
            this.inbound = new ShmChannel[localSize];
            for (int r = 0; r < localSize; r++) {
                if (r != localRank) {
                    outbound[r] = channel(localRank, r);
                    inbound[r] = channel(r, localRank);
                }
            }
            this.stepArea = new NodeStepArea(segment, layout, localRank, doorbells, peers);
            startedUp = true;
        } catch (RuntimeException | Error e) {
            release(e);
            throw e;
        }
    }

    private ShmChannel channel(int from, int to) {
        return new ShmChannel(segment, layout.ringControl(from, to), layout.ringData(from, to), layout.ringBytes(),
                from, to, doorbells[from], doorbells[to], peers, waitStrategy);
    }

    private void register(String who) {
        long slot = layout.attachSlot(localRank);
        long state = SharedAccess.getLongAcquire(segment, slot + RegionLayout.ATTACH_STATE);
        if (state != RegionLayout.STATE_ABSENT) {
            long other = attachWord(localRank, RegionLayout.ATTACH_PID);
            throw new ShmException(ShmException.Reason.REGION, who + ": the slot of local rank " + localRank
                    + " is already " + (state == RegionLayout.STATE_ATTACHED ? "attached" : "used")
                    + " by pid " + other + "; are two processes started as the same local rank?");
        }
        segment.set(ValueLayout.JAVA_LONG, slot + RegionLayout.ATTACH_PID, pid);
        segment.set(ValueLayout.JAVA_LONG, slot + RegionLayout.ATTACH_START_MILLIS,
                Processes.currentStartMillis());
        segment.set(ValueLayout.JAVA_LONG, slot + RegionLayout.ATTACH_MAPPING_ADDRESS, segment.address());
        SharedAccess.setLongRelease(segment, slot + RegionLayout.ATTACH_STATE, RegionLayout.STATE_ATTACHED);
    }

    /**
     * Polls the attach slots until every rank has attached; returns their process handles. A
     * rank that attached and already closed normally counts as attached (it is reported as lost
     * when someone waits on it); one that gave up during start-up, or died, fails start-up here.
     */
    private ProcessHandle[] awaitAllAttached(String who, long startNs, long timeoutNs) {
        ProcessHandle[] handles = new ProcessHandle[localSize];
        boolean[] seen = new boolean[localSize];
        seen[localRank] = true;
        long sleepMillis = 1;
        while (true) {
            List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < localSize; r++) {
                long state = SharedAccess.getLongAcquire(segment, layout.attachSlot(r) + RegionLayout.ATTACH_STATE);
                long peerPid = attachWord(r, RegionLayout.ATTACH_PID);
                if (state == RegionLayout.STATE_ABANDONED) {
                    throw new ShmException(ShmException.Reason.PEER_LOST, who + ": local rank " + r + " (pid " + peerPid
                            + ") gave up during start-up");
                }
                if (r == localRank || state == RegionLayout.STATE_DETACHED) {
                    seen[r] = true;
                    continue;
                }
                if (state == RegionLayout.STATE_ABSENT) {
                    missing.add(r);
                    continue;
                }
                if (!seen[r]) {
                    seen[r] = true;
                    handles[r] = Processes.find(peerPid, attachWord(r, RegionLayout.ATTACH_START_MILLIS)).orElse(null);
                }
                if (handles[r] == null || !handles[r].isAlive()) {
                    throw new ShmException(ShmException.Reason.PEER_LOST, who + ": local rank " + r + " (pid " + peerPid
                            + ") attached and exited during start-up");
                }
            }
            if (missing.isEmpty()) {
                return handles;
            }
            long waited = System.nanoTime() - startNs;
            if (waited >= timeoutNs) {
                throw new ShmException(ShmException.Reason.TIMED_OUT, who + ": timed out after " + PeerWatch.millis(waited)
                        + " ms awaiting local ranks " + missing + " of " + localSize + " to attach to " + path);
            }
            RegionFiles.sleep(sleepMillis, who);
            sleepMillis = Math.min(sleepMillis * 2, 5);
        }
    }

    private long attachWord(int rank, long field) {
        return segment.get(ValueLayout.JAVA_LONG, layout.attachSlot(rank) + field);
    }

    public String jobId() {
        return jobId;
    }

    public int nodeId() {
        return nodeId;
    }

    public int localRank() {
        return localRank;
    }

    public int localSize() {
        return localSize;
    }

    public RegionLayout layout() {
        return layout;
    }

    /** The file's name (unlinked once all ranks attached). */
    public Path path() {
        return path;
    }

    public boolean isCreator() {
        return creator;
    }

    /** The doorbell of local rank {@code rank}: ring it after giving that rank work. */
    public Doorbell doorbell(int rank) {
        return doorbells[rank];
    }

    /** This rank's doorbell: its waiting thread sleeps on it; TCP progress threads ring it. */
    public Doorbell ownDoorbell() {
        return doorbells[localRank];
    }

    /** A fresh idler on this rank's doorbell with the configured strategy, for one waiting thread. */
    public Idler newIdler() {
        return new Idler(doorbells[localRank], waitStrategy);
    }

    /** The channel this rank writes to reach local rank {@code to}. */
    public ShmChannel channelTo(int to) {
        return requireChannel(outbound, to);
    }

    /** The channel this rank reads to hear from local rank {@code from}. */
    public ShmChannel channelFrom(int from) {
        return requireChannel(inbound, from);
    }

    /** The node-step buffer and flags the engine runs schedules' node steps in (decision 0101). */
    public io.railcoll.transport.NodeArea stepArea() {
        return stepArea;
    }

    /**
     * The node's agreement on the engine's single-copy node steps (decision 0143): every rank says whether it may
     * reach every node-mate with {@link Cma} ({@code mine}), and all get true only if all said so; peer accesses are
     * enabled then. Start-up only, on every rank of the node.
     */
    public boolean agreePeerAccess(boolean mine, long timeoutNs) {
        return stepArea.agreePeerAccess(mine, timeoutNs);
    }

    public PeerWatch peers() {
        return peers;
    }

    /**
     * Whether this process may read local rank {@code rank}'s memory with {@link Cma}: probes the
     * start of that rank's mapping of this region, where the magic is.
     */
    public boolean cmaUsableWith(int rank) {
        if (rank == localRank) {
            return true;
        }
        return Cma.probe(peers.pid(rank), attachWord(rank, RegionLayout.ATTACH_MAPPING_ADDRESS), RegionHeader.MAGIC);
    }

    /**
     * Marks this rank detached and wakes its peers, unlinks the file if local rank 0 has not yet,
     * and unmaps the region. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        release(null);
    }

    private void release(Throwable primary) {
        closed = true;
        Throwable failure = primary;
        try {
            // A rank whose start-up failed says so, so that the others fail their start-up too.
            SharedAccess.setLongRelease(segment, layout.attachSlot(localRank) + RegionLayout.ATTACH_STATE,
                    startedUp ? RegionLayout.STATE_DETACHED : RegionLayout.STATE_ABANDONED);
            Doorbell[] bells = new Doorbell[localSize];
            for (int r = 0; r < localSize; r++) {
                bells[r] = new Doorbell(segment, layout.doorbell(r));
            }
            Doorbell.ringAll(bells, localRank);
        } catch (RuntimeException e) {
            failure = keep(failure, e);
        }
        if (peers != null) {
            peers.close();
        }
        if (creator && !unlinked) {
            try {
                unlinked = RegionFiles.deleteIfCreatedBy(path, pid);
            } catch (RuntimeException e) {
                failure = keep(failure, e);
            }
        }
        try {
            arena.close();
        } catch (RuntimeException e) {
            failure = keep(failure, e);
        }
        if (primary == null && failure instanceof RuntimeException e) {
            throw e;
        }
    }

    private static Throwable keep(Throwable first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private ShmChannel requireChannel(ShmChannel[] channels, int rank) {
        if (rank < 0 || rank >= localSize || rank == localRank) {
            throw new IllegalArgumentException("no channel between local rank " + localRank + " and " + rank
                    + " on a node of " + localSize);
        }
        return channels[rank];
    }

    @Override
    public String toString() {
        return "NodeRegion[job " + jobId + ", node " + nodeId + ", local rank " + localRank + " of " + localSize
                + ", " + layout.totalBytes() + " bytes" + (closed ? ", closed" : "") + "]";
    }
}
