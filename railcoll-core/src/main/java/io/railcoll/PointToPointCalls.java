package io.railcoll;

import io.railcoll.engine.ContextRouter;
import io.railcoll.engine.PointToPoint;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static io.railcoll.Communicator.ANY_SOURCE;
import static io.railcoll.Communicator.ANY_TAG;
import static io.railcoll.RailcollCommunicator.requireNonNull;

/**
 * A communicator's point-to-point calls (decision 0080): {@code send}, {@code ssend}, {@code recv},
 * {@code sendRecv}, the non-blocking and persistent forms, the probes and matched probes. Each checks its arguments
 * before anything is sent, enters the communicator's {@link CallGate} and starts or awaits operations on the
 * communicator's {@link PointToPoint}, which runs under a context of its own. Moved out of
 * {@link RailcollCommunicator}, which delegates to it, unchanged (decision 0208).
 *
 * <p>Threading: any thread the communicator's gate admits. Made and owned by its communicator; nothing to close.
 */
final class PointToPointCalls {
    /** The longest message: the receiver may have to hold it in one Java array. */
    private static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE - 16;

    private final CallGate gate;
    private final PointToPoint p2p;
    /** Told at every call that this rank uses point-to-point messages (frames ahead of their call are then held). */
    private final ContextRouter router;
    /** The communicator's open check. */
    private final CallPlumbing plumbing;
    /** How messages name the communicator. */
    private final String name;
    /** The communicator's ranks. */
    private final int size;

    PointToPointCalls(CallGate gate, PointToPoint p2p, ContextRouter router, CallPlumbing plumbing, String name,
                      int size) {
        this.gate = gate;
        this.p2p = p2p;
        this.router = router;
        this.plumbing = plumbing;
        this.name = name;
        this.size = size;
    }

    void send(MemorySegment data, int dest, int tag) {
        blockingSend("send", data, dest, tag, false);
    }

    void ssend(MemorySegment data, int dest, int tag) {
        blockingSend("ssend", data, dest, tag, true);
    }

    private void blockingSend(String call, MemorySegment data, int dest, int tag, boolean synchronous) {
        gate.enter(call);
        try {
            PointToPoint.SendOp op = startSend(call, data, dest, tag, synchronous);
            p2p.await(op, Long.MAX_VALUE);
        } finally {
            gate.exit();
        }
    }

    Status recv(MemorySegment into, int source, int tag) {
        gate.enter("recv");
        try {
            PointToPoint.RecvOp op = startRecv("recv", into, source, tag);
            p2p.await(op, Long.MAX_VALUE);
            return received(op, "recv");
        } finally {
            gate.exit();
        }
    }

    Status sendRecv(MemorySegment data, int dest, int sendTag, MemorySegment into, int source, int recvTag) {
        gate.enter("sendRecv");
        try {
            checkSend("sendRecv", data, dest, sendTag);
            checkRecv("sendRecv", into, source, recvTag);
            if (into.asOverlappingSlice(data).isPresent()) {
                throw new IllegalArgumentException("sendRecv: the receive buffer overlaps the data sent");
            }
            // The receive is posted first, so a message from this rank to itself lands in it directly.
            PointToPoint.RecvOp r = startRecv("sendRecv", into, source, recvTag);
            PointToPoint.SendOp s = startSend("sendRecv", data, dest, sendTag, false);
            p2p.await(r, Long.MAX_VALUE);
            p2p.await(s, Long.MAX_VALUE);
            return received(r, "sendRecv");
        } finally {
            gate.exit();
        }
    }

    MessageRequest isend(MemorySegment data, int dest, int tag) {
        return nonBlockingSend("isend", data, dest, tag, false);
    }

    MessageRequest issend(MemorySegment data, int dest, int tag) {
        return nonBlockingSend("issend", data, dest, tag, true);
    }

    /** isend and issend with no lambda per call (issue 21). */
    private MessageRequest nonBlockingSend(String call, MemorySegment data, int dest, int tag, boolean synchronous) {
        gate.enter(call);
        try {
            return new MessageRequest(p2p, startSend(call, data, dest, tag, synchronous), gate, call);
        } finally {
            gate.exit();
        }
    }

    MessageRequest sendInit(MemorySegment data, int dest, int tag) {
        return persistentSend("sendInit", data, dest, tag, false);
    }

    MessageRequest ssendInit(MemorySegment data, int dest, int tag) {
        return persistentSend("ssendInit", data, dest, tag, true);
    }

    /**
     * A persistent send (decision 0088), checked now: a standard one restarts its one operation each round; a
     * synchronous one starts a new one (see {@link PointToPoint#restart(PointToPoint.SendOp, MemorySegment)}).
     */
    private MessageRequest persistentSend(String call, MemorySegment data, int dest, int tag, boolean synchronous) {
        gate.enter(call);
        try {
            plumbing.requireOpen();
            checkSend(call, data, dest, tag);
            return new MessageRequest(p2p, PointToPoint.unstartedSend(data.byteSize(), dest, tag, synchronous), gate,
                    call, last -> {
                        plumbing.requireOpen();
                        router.usePointToPoint();
                        return synchronous ? p2p.isend(data, dest, tag, true)
                                : p2p.restart((PointToPoint.SendOp) last, data);
                    });
        } finally {
            gate.exit();
        }
    }

    MessageRequest recvInit(MemorySegment into, int source, int tag) {
        gate.enter("recvInit");
        try {
            plumbing.requireOpen();
            checkRecv("recvInit", into, source, tag);
            return new MessageRequest(p2p, PointToPoint.unstartedRecv(into, source, tag), gate, "recvInit", last -> {
                plumbing.requireOpen();
                router.usePointToPoint();
                return p2p.restart((PointToPoint.RecvOp) last);
            });
        } finally {
            gate.exit();
        }
    }

    MessageRequest irecv(MemorySegment into, int source, int tag) {
        gate.enter("irecv");
        try {
            return new MessageRequest(p2p, startRecv("irecv", into, source, tag), gate, "irecv");
        } finally {
            gate.exit();
        }
    }

    Status probe(int source, int tag) {
        gate.enter("probe");
        try {
            plumbing.requireOpen();
            checkSource("probe", source, tag);
            router.usePointToPoint();
            PointToPoint.Probed p = p2p.probe(source, tag);
            return new Status(p.source(), p.tag(), p.count());
        } finally {
            gate.exit();
        }
    }

    Optional<Status> iprobe(int source, int tag) {
        gate.enter("iprobe");
        try {
            plumbing.requireOpen();
            checkSource("iprobe", source, tag);
            router.usePointToPoint();
            PointToPoint.Probed p = p2p.iprobeAfterProgress(source, tag);
            return p == null ? Optional.empty() : Optional.of(new Status(p.source(), p.tag(), p.count()));
        } finally {
            gate.exit();
        }
    }

    MatchedMessage mprobe(int source, int tag) {
        if (gate.threadSafe()) {
            return mprobeBetweenRounds(source, tag);
        }
        gate.enter("mprobe");
        try {
            plumbing.requireOpen();
            checkSource("mprobe", source, tag);
            router.usePointToPoint();
            return new MatchedMessage(this, p2p.mprobe(source, tag));
        } finally {
            gate.exit();
        }
    }

    /**
     * A thread-safe communicator's blocking matched probe (decision 0134): each round of progress and matching runs
     * under the gate, the wait between rounds outside it, so that other threads' sends, receives and collectives on
     * this communicator go on while this one waits (they drive the progress it waits for). Taking the message stays
     * one step under the point-to-point lock ({@link PointToPoint#improbe}); the deadline counts from the first round.
     */
    private MatchedMessage mprobeBetweenRounds(int source, int tag) {
        long startNs = System.nanoTime();
        for (int round = 0; ; round++) {
            gate.enter("mprobe");
            try {
                plumbing.requireOpen();
                checkSource("mprobe", source, tag);
                router.usePointToPoint();
                PointToPoint.Matched m = p2p.mprobeRound(source, tag, startNs);
                if (m != null) {
                    return new MatchedMessage(this, m);
                }
            } finally {
                gate.exit();
            }
            pauseOutsideTheGate(round);
        }
    }

    /** Between two rounds of a wait outside the gate: spin, then yield, then park up to a millisecond. */
    private static void pauseOutsideTheGate(int round) {
        if (round < 64) {
            Thread.onSpinWait();
        } else if (round < 128) {
            Thread.yield();
        } else {
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(1_000_000L, 10_000L << Math.min(round - 128, 7)));
        }
    }

    Optional<MatchedMessage> improbe(int source, int tag) {
        gate.enter("improbe");
        try {
            plumbing.requireOpen();
            checkSource("improbe", source, tag);
            router.usePointToPoint();
            PointToPoint.Matched m = p2p.improbeAfterProgress(source, tag);
            return m == null ? Optional.empty() : Optional.of(new MatchedMessage(this, m));
        } finally {
            gate.exit();
        }
    }

    /** {@link MatchedMessage#recv}: receives matched message {@code m} into {@code into}. */
    Status mrecv(PointToPoint.Matched m, MemorySegment into) {
        gate.enter("mrecv");
        try {
            PointToPoint.RecvOp op = startMatchedRecv("mrecv", m, into);
            p2p.await(op, Long.MAX_VALUE);
            return received(op, "mrecv");
        } finally {
            gate.exit();
        }
    }

    /** {@link MatchedMessage#irecv}. */
    MessageRequest imrecv(PointToPoint.Matched m, MemorySegment into) {
        return startRequest("imrecv", () -> startMatchedRecv("imrecv", m, into));
    }

    private PointToPoint.RecvOp startMatchedRecv(String call, PointToPoint.Matched m, MemorySegment into) {
        plumbing.requireOpen();
        requireNonNull(into, call, "the buffer");
        if (into.isReadOnly()) {
            throw new IllegalArgumentException(call + ": the buffer is read-only");
        }
        return p2p.mrecv(m, into);
    }

    private MessageRequest startRequest(String call, java.util.function.Supplier<PointToPoint.Op> start) {
        gate.enter(call);
        try {
            return new MessageRequest(p2p, start.get(), gate, call);
        } finally {
            gate.exit();
        }
    }

    private PointToPoint.SendOp startSend(String call, MemorySegment data, int dest, int tag, boolean synchronous) {
        plumbing.requireOpen();
        checkSend(call, data, dest, tag);
        router.usePointToPoint();
        return p2p.isend(data, dest, tag, synchronous);
    }

    private PointToPoint.RecvOp startRecv(String call, MemorySegment into, int source, int tag) {
        plumbing.requireOpen();
        checkRecv(call, into, source, tag);
        router.usePointToPoint();
        return p2p.irecv(into, source, tag);
    }

    /** A finished receive's status, or its truncation thrown. */
    private static Status received(PointToPoint.RecvOp op, String call) {
        TruncatedMessageException t = MessageRequest.truncation(op, call);
        if (t != null) {
            throw t;
        }
        return MessageRequest.statusOf(op);
    }

    private void checkSend(String call, MemorySegment data, int dest, int tag) {
        requireNonNull(data, call, "data");
        if (dest < 0 || dest >= size) {
            throw new IllegalArgumentException(call + ": rank " + dest + " is out of range: " + name + " has size "
                    + size);
        }
        if (tag < 0) {
            throw new IllegalArgumentException(call + ": the tag must be >= 0, got " + tag);
        }
        if (data.byteSize() > MAX_MESSAGE_BYTES) {
            throw new IllegalArgumentException(call + ": a message holds at most " + MAX_MESSAGE_BYTES + " bytes, got "
                    + data.byteSize());
        }
    }

    private void checkRecv(String call, MemorySegment into, int source, int tag) {
        requireNonNull(into, call, "the buffer");
        checkSource(call, source, tag);
        if (into.isReadOnly()) {
            throw new IllegalArgumentException(call + ": the buffer is read-only");
        }
    }

    private void checkSource(String call, int source, int tag) {
        if (source != ANY_SOURCE && (source < 0 || source >= size)) {
            throw new IllegalArgumentException(call + ": rank " + source + " is out of range: " + name + " has "
                    + size + " ranks (ANY_SOURCE is " + ANY_SOURCE + ")");
        }
        if (tag < 0 && tag != ANY_TAG) {
            throw new IllegalArgumentException(call + ": the tag must be >= 0 or ANY_TAG (" + ANY_TAG + "), got " + tag);
        }
    }
}
