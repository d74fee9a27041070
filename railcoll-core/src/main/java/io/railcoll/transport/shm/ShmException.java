package io.railcoll.transport.shm;

import io.railcoll.RailcollException;
import java.util.Objects;

/**
 * A run-time failure of the shared-memory transport: a peer died or left, a wait passed its
 * deadline, ranks disagreed about a call, the region file could not be set up, or a single-copy
 * read was refused. The message says what was awaited, from which local rank (and pid), for how
 * long. After one is thrown from a channel or a node collective the region's protocol state is
 * undefined: the rank should close its {@link NodeRegion}.
 */
public final class ShmException extends RailcollException {
    private static final long serialVersionUID = 1L;

    /** Why the operation failed; lets a caller pick a fallback without parsing messages. */
    public enum Reason {
        /** A wait passed its deadline with the peer still alive. */
        TIMED_OUT,
        /** The awaited peer process exited or closed its end of the region. */
        PEER_LOST,
        /** Ranks disagree: different layouts, collective kinds, roots or sizes. */
        MISMATCH,
        /** Another local rank failed inside a node collective and aborted it for the whole node. */
        ABORTED,
        /** The region file is held by another live job or rank, or could not be created or mapped. */
        REGION,
        /** The kernel refused cross-memory attach (ptrace rules, seccomp); fall back to the ring. */
        CMA_DENIED,
        /** Cross-memory attach failed for another reason (bad address, out of memory). */
        CMA_FAILED
    }

    private final Reason reason;
    private final int localPeer;
    /** For {@link Reason#ABORTED}: why the aborting rank failed, when it said; else null. */
    private final Reason abortedFor;

    public ShmException(Reason reason, String message) {
        this(reason, -1, message);
    }

    /** A failure caused by local rank {@code localPeer} (the one lost, or the one that aborted). */
    public ShmException(Reason reason, int localPeer, String message) {
        this(reason, localPeer, message, (Reason) null);
    }

    /** {@link Reason#ABORTED} by local rank {@code localPeer}, which failed for {@code abortedFor}. */
    public ShmException(Reason reason, int localPeer, String message, Reason abortedFor) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.localPeer = localPeer;
        this.abortedFor = abortedFor;
    }

    public ShmException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.localPeer = -1;
        this.abortedFor = null;
    }

    public Reason reason() {
        return reason;
    }

    /** For {@link Reason#ABORTED}: why the aborting node-mate failed (a mismatch, say), or null when unknown. */
    public Reason abortedFor() {
        return abortedFor;
    }

    /** The local rank that caused it ({@link Reason#PEER_LOST}, {@link Reason#ABORTED}), or -1 when none is known. */
    public int localPeer() {
        return localPeer;
    }
}
