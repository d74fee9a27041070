package io.railcoll.bootstrap;

import io.railcoll.HandshakeRejectedException;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The acceptor side of the {@link Handshake} for every connection of one or more listeners at once, on the calling
 * thread, through one non-blocking selector: no thread per connection, so a flood of strangers grows no thread count,
 * and a silent or slow stranger cannot hold up a peer that connects after it.
 *
 * <ul>
 *   <li>Each connection must finish the handshake within the handshake deadline
 *       ({@link #DEFAULT_HANDSHAKE_TIMEOUT_NS}, 1 s) of being accepted, or it is dropped; once authenticated it has
 *       10 s more for its {@link FollowUp} message, if any, and no longer counts against the cap.</li>
 *   <li>At most {@code maxPending} connections may be awaiting authentication; a new one beyond that drops the
 *       oldest, which has had the longest to prove itself (a peer's handshake takes milliseconds, so under a flood
 *       it is the strangers that age out), unless even the oldest was admitted less than a quarter of the deadline
 *       ago: then the
 *       newcomer is turned away at once. A dropped or turned-away connector sees
 *       {@link HandshakeDroppedException} and retries.</li>
 *   <li>Garbage (bad magic, bad version, malformed fields, more bytes than a message can take) is refused as soon as
 *       it is seen; a wrong secret, job, purpose or rank is refused with the handshake's reason.</li>
 * </ul>
 * Every refusal and drop is counted and logged at a rate limit ({@link Refusals}).
 *
 * <p>One thread uses an instance. Authenticated channels are returned in blocking mode, deregistered; the caller owns
 * them. {@link #close} closes the connections still pending and the selector, not the listeners.
 *
 * @param <T> the message a connector sends right after the handshake ({@code Void} when none)
 */
public final class HandshakeAcceptor<T> implements AutoCloseable {
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_NS = 1_000_000_000L;
    public static final int DEFAULT_MAX_PENDING = 128;
    /** How long an authenticated connection may take to send its follow-up message. */
    static final long PROVEN_TIMEOUT_NS = 10_000_000_000L;
    private static final int ACCEPTS_PER_ROUND = 256;
    /**
     * An admitted connection is never dropped for a newer one before a quarter of the handshake deadline (250 ms by
     * default): a peer needs one round trip to answer the hello (milliseconds, more on a loaded host), so a burst of
     * strangers cannot push it out before it can. Until then newcomers are turned away, which is the cheapest way
     * to drain a flood out of the listen queue.
     */
    private final long minAgeNs;

    /** Reads what a connector sends right after an accepted handshake; {@link EOFException} means "not all here yet". */
    public interface FollowUp<T> {
        T read(DataInputStream in, Handshake.Peer peer) throws IOException;

        /** The most bytes the message may take; a connector that sends more is refused. */
        int maxBytes();
    }

    /**
     * Decides, once a connector proved it holds the job secret and before it is answered, whether it may in (a rail
     * listener kept open for reconnections checks which rank, lane and connection it claims). Runs on the
     * acceptor's thread.
     */
    public interface Admission {
        /** Null to admit {@code peer}, who connected to listener {@code listener}; else why it is refused. */
        String refusal(Handshake.Peer peer, int listener);
    }

    /** A connection that proved itself: who it is, on which listener (index), and its follow-up message. */
    public record Authenticated<T>(Handshake.Peer peer, SocketChannel channel, int listener, T message) {
    }

    private final Handshake handshake;
    private final List<ServerSocketChannel> listeners;
    private final int maxRankExclusive;
    private final int rails;
    private final Handshake.Purpose purpose;
    private final FollowUp<T> followUp;
    private final long handshakeTimeoutNs;
    private final int maxPending;
    private final Refusals refusals;
    private Admission admission;
    private final Selector selector;
    /** Connections not yet authenticated, oldest first: capped, with the handshake deadline. */
    private final LinkedHashSet<Pending> pending = new LinkedHashSet<>();
    /**
     * Connections that proved themselves and owe their follow-up message: out of the cap (only holders of the secret
     * get here), with a longer deadline, since a loaded peer may be descheduled between its hello and its message.
     */
    private final LinkedHashSet<Pending> proven = new LinkedHashSet<>();
    private final ArrayDeque<Authenticated<T>> ready = new ArrayDeque<>();

    /** One connection awaiting authentication. */
    private final class Pending {
        final SocketChannel channel;
        final int listener;
        final long acceptedNs;
        final byte[] nonce = Handshake.freshNonce();
        final String where;
        SelectionKey key;
        ByteBuffer in = ByteBuffer.allocate(128);
        Handshake.Peer peer;
        long provenNs;
        boolean dropped;

        Pending(SocketChannel channel, int listener, long acceptedNs, String where) {
            this.channel = channel;
            this.listener = listener;
            this.acceptedNs = acceptedNs;
            this.where = where;
        }
    }

    public HandshakeAcceptor(Handshake handshake, List<ServerSocketChannel> listeners, int maxRankExclusive, int rails,
                             Handshake.Purpose purpose, FollowUp<T> followUp, long handshakeTimeoutNs, int maxPending,
                             Refusals refusals) throws IOException {
        if (maxPending < 1 || handshakeTimeoutNs <= 0) {
            throw new IllegalArgumentException("maxPending must be >= 1 and the handshake deadline > 0");
        }
        this.handshake = handshake;
        this.listeners = List.copyOf(listeners);
        this.maxRankExclusive = maxRankExclusive;
        this.rails = rails;
        this.purpose = purpose;
        this.followUp = followUp;
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        this.maxPending = maxPending;
        this.minAgeNs = handshakeTimeoutNs / 4;
        this.refusals = refusals;
        this.selector = Selector.open();
        try {
            for (int i = 0; i < this.listeners.size(); i++) {
                ServerSocketChannel l = this.listeners.get(i);
                l.configureBlocking(false);
                l.register(selector, SelectionKey.OP_ACCEPT, i);
            }
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
    }

    /** With the default deadline (1 s) and cap (128 connections awaiting authentication). */
    public HandshakeAcceptor(Handshake handshake, List<ServerSocketChannel> listeners, int maxRankExclusive, int rails,
                             Handshake.Purpose purpose, FollowUp<T> followUp, Refusals refusals) throws IOException {
        this(handshake, listeners, maxRankExclusive, rails, purpose, followUp, DEFAULT_HANDSHAKE_TIMEOUT_NS,
                DEFAULT_MAX_PENDING, refusals);
    }

    /**
     * Runs handshakes until one connection is authenticated (returned) or {@code untilNs} (a {@link System#nanoTime}
     * instant) passes (null). Interrupting the thread ends the wait early with null, the interrupt status kept.
     */
    public Authenticated<T> next(long untilNs) throws IOException {
        while (ready.isEmpty()) {
            long now = System.nanoTime();
            expire(now);
            if (now - untilNs >= 0 || Thread.currentThread().isInterrupted()) {
                return null;
            }
            long waitNs = untilNs - now;
            Pending oldest = pending.isEmpty() ? null : pending.getFirst();
            if (oldest != null) {
                waitNs = Math.min(waitNs, oldest.acceptedNs + handshakeTimeoutNs - now);
            }
            selector.select(Math.max(1, Math.ceilDiv(Math.max(0, waitNs), 1_000_000L)));
            List<Pending> done = new ArrayList<>();
            Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
            while (keys.hasNext()) {
                SelectionKey key = keys.next();
                keys.remove();
                if (!key.isValid()) {
                    continue;
                }
                if (key.isAcceptable()) {
                    acceptSome((ServerSocketChannel) key.channel(), (Integer) key.attachment());
                } else if (key.isReadable()) {
                    @SuppressWarnings("unchecked")
                    Pending p = (Pending) key.attachment();
                    T message = readSome(p);
                    if (!p.dropped && p.peer != null && (followUp == null || message != null)) {
                        pending.remove(p);
                        proven.remove(p);
                        p.key.cancel();
                        done.add(p);
                        ready.add(new Authenticated<>(p.peer, p.channel, p.listener, message));
                    }
                }
            }
            if (!done.isEmpty()) {
                selector.selectNow(); // completes the cancellations, so the channels may go back to blocking mode
                selector.selectedKeys().clear(); // level-triggered: anything ready is reported again next round
                for (Pending p : done) {
                    p.channel.configureBlocking(true);
                }
            }
        }
        return ready.poll();
    }

    /** From now on every authenticated connector is also put to {@code a} before it is answered. */
    public HandshakeAcceptor<T> admitting(Admission a) {
        this.admission = a;
        return this;
    }

    /** Every refusal and drop so far. */
    public Refusals refusals() {
        return refusals;
    }

    /** Connections accepted and awaiting authentication now (or, authenticated, their follow-up message). */
    public int pendingCount() {
        return pending.size() + proven.size();
    }

    private void acceptSome(ServerSocketChannel listener, int index) throws IOException {
        for (int i = 0; i < ACCEPTS_PER_ROUND; i++) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                // Out of descriptors, or the listener closed: count it, keep serving what is pending.
                refusals.refused("cannot accept on " + safeLocal(listener) + ": " + e.getMessage(), System.nanoTime());
                return;
            }
            if (ch == null) {
                return;
            }
            long now = System.nanoTime();
            if (pending.size() >= maxPending) {
                Pending oldest = pending.getFirst();
                if (now - oldest.acceptedNs < minAgeNs) {
                    // A burst: every slot is young. Turning the newcomer away costs least (an accept and a close:
                    // no hello, no registration), so a flood drains fast and the peers queued behind it get their
                    // turn; each admitted connection keeps its time to answer.
                    refusals.refused("turned away " + remote(ch) + ": " + maxPending
                            + " connections awaiting a handshake, none older than " + minAgeNs / 1_000_000 + " ms", now);
                    closeQuietly(ch);
                    continue;
                }
                drop(oldest, "dropped " + oldest.where + ": " + maxPending + " connections were awaiting a handshake",
                        now);
            }
            Pending p = new Pending(ch, index, now, remote(ch));
            try {
                ch.configureBlocking(false);
                if (ch.write(ByteBuffer.wrap(Handshake.acceptorHello(p.nonce))) != 4 + 2 + 16) {
                    throw new IOException("could not send the 22-byte hello at once");
                }
                p.key = ch.register(selector, SelectionKey.OP_READ, p);
                pending.add(p);
            } catch (IOException e) {
                refusals.refused("dropped " + p.where + ": " + e.getMessage(), now);
                closeQuietly(ch);
            }
        }
    }

    /** Reads what arrived and advances the handshake; returns the follow-up message once complete, else null. */
    private T readSome(Pending p) {
        long now = System.nanoTime();
        try {
            int limit = p.peer == null ? Handshake.ConnectorHello.MAX_BYTES : followUp.maxBytes();
            if (!p.in.hasRemaining()) {
                if (p.in.capacity() >= limit) {
                    refuse(p, "sent more than " + limit + " bytes", now);
                    return null;
                }
                ByteBuffer bigger = ByteBuffer.allocate(Math.min(limit, p.in.capacity() * 2));
                p.in.flip();
                bigger.put(p.in);
                p.in = bigger;
            }
            int n = p.channel.read(p.in);
            if (n < 0) {
                drop(p, "dropped " + p.where + ": closed during the handshake", now);
                return null;
            }
            if (p.peer == null) {
                helloIfComplete(p, now);
            }
            if (!p.dropped && p.peer != null && followUp != null) {
                return followUpIfComplete(p, now);
            }
            return null;
        } catch (IOException e) {
            drop(p, "dropped " + p.where + ": " + e.getMessage(), now);
            return null;
        }
    }

    private void helloIfComplete(Pending p, long now) throws IOException {
        int have = p.in.position();
        // The fixed part before the job id is 9 bytes; parse only when the whole hello is in (or to refuse a bad
        // magic or version early), so a slow sender costs one parse, not one per byte.
        if (have < 6) {
            return;
        }
        byte[] bytes = p.in.array();
        int needed = have >= 9 ? 9 + (((bytes[7] & 0xff) << 8) | (bytes[8] & 0xff)) + 4 + 4 + 16 + 32 : Integer.MAX_VALUE;
        boolean headerOnly = have < needed;
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes, 0, have);
        Handshake.ConnectorHello hello;
        try {
            if (headerOnly) {
                DataInputStream d = new DataInputStream(new ByteArrayInputStream(bytes, 0, 6));
                try {
                    Handshake.ConnectorHello.read(d, p.where);
                } catch (EOFException expected) {
                    // magic and version are right; wait for the rest
                }
                return;
            }
            hello = Handshake.ConnectorHello.read(new DataInputStream(raw), p.where);
        } catch (HandshakeRejectedException e) {
            refuse(p, e.getMessage(), now);
            return;
        } catch (UTFDataFormatException e) {
            refuse(p, "refused " + p.where + ": malformed job id", now);
            return;
        } catch (EOFException e) {
            return;
        }
        Handshake.Verdict v = handshake.judge(hello, p.nonce, maxRankExclusive, rails);
        if (v.accepted() && (purpose == null || v.peer().purpose() == purpose) && admission != null) {
            String no = admission.refusal(v.peer(), p.listener);
            if (no != null) {
                v = Handshake.refusal(no, no);
            }
        }
        ByteBuffer reply = ByteBuffer.wrap(v.reply());
        if (p.channel.write(reply) != v.reply().length) {
            drop(p, "dropped " + p.where + ": could not send the handshake's answer at once", now);
            return;
        }
        if (!v.accepted()) {
            refuse(p, "refused " + p.where + ": " + v.refusal(), now);
            return;
        }
        if (purpose != null && v.peer().purpose() != purpose) {
            refuse(p, "refused " + p.where + ": a " + v.peer().purpose() + " connection on a " + purpose
                    + " listener", now);
            return;
        }
        p.peer = v.peer();
        pending.remove(p);
        if (followUp != null) {
            p.provenNs = now;
            proven.add(p);
        }
        // What followed the hello belongs to the follow-up message.
        int rest = raw.available();
        ByteBuffer next = ByteBuffer.allocate(Math.max(128, rest));
        next.put(bytes, have - rest, rest);
        p.in = next;
    }

    private T followUpIfComplete(Pending p, long now) {
        ByteArrayInputStream raw = new ByteArrayInputStream(p.in.array(), 0, p.in.position());
        try {
            T message = followUp.read(new DataInputStream(raw), p.peer);
            if (raw.available() > 0) {
                refuse(p, "refused rank " + p.peer.rank() + " at " + p.where + ": " + raw.available()
                        + " bytes after its message", now);
                return null;
            }
            return message;
        } catch (EOFException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            refuse(p, "refused rank " + p.peer.rank() + " at " + p.where + ": malformed message (" + e.getMessage() + ")",
                    now);
            return null;
        }
    }

    private void expire(long now) {
        while (!proven.isEmpty() && now - proven.getFirst().provenNs >= PROVEN_TIMEOUT_NS) {
            Pending late = proven.getFirst();
            drop(late, "dropped rank " + late.peer.rank() + " at " + late.where + ": authenticated, but sent no "
                    + "message within " + PROVEN_TIMEOUT_NS / 1_000_000 + " ms", now);
        }
        while (!pending.isEmpty()) {
            Pending oldest = pending.getFirst();
            if (now - oldest.acceptedNs < handshakeTimeoutNs) {
                return;
            }
            drop(oldest, "dropped " + oldest.where + ": no handshake within "
                    + Math.round(handshakeTimeoutNs / 1e6) + " ms", now);
        }
    }

    private void refuse(Pending p, String reason, long now) {
        drop(p, reason, now);
    }

    private void drop(Pending p, String reason, long now) {
        p.dropped = true;
        pending.remove(p);
        proven.remove(p);
        if (p.key != null) {
            p.key.cancel();
        }
        closeQuietly(p.channel);
        refusals.refused(reason, now);
    }

    private static String remote(SocketChannel ch) {
        try {
            SocketAddress a = ch.getRemoteAddress();
            return a == null ? "?" : a.toString();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String safeLocal(ServerSocketChannel l) {
        try {
            return String.valueOf(l.getLocalAddress());
        } catch (IOException e) {
            return "a closed listener";
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // a stranger's socket: nothing to salvage
        }
    }

    /** Closes every connection not handed out, and the selector; the listeners stay open (their owner closes them). */
    @Override
    public void close() {
        for (Pending p : pending) {
            closeQuietly(p.channel);
        }
        pending.clear();
        for (Pending p : proven) {
            closeQuietly(p.channel);
        }
        proven.clear();
        for (Authenticated<T> a : ready) {
            closeQuietly(a.channel());
        }
        ready.clear();
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        refusals.flush(System.nanoTime());
    }

    /** Wakes a thread blocked in {@link #next} (for a close from another thread). */
    public void wakeup() {
        selector.wakeup();
    }
}
