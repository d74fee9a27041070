package io.railcoll.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What every rail has carried since the communicator started, and which rail connections failed, so a user can
 * see that every configured rail works (or which one does not). Updated by progress code on any thread, read by
 * anyone; reads are individually atomic, not a snapshot of all rails at one instant.
 */
public final class RailCounters {
    /**
     * A rail connection to one peer that was given up; its traffic moved to the peer's other rails.
     *
     * @param peer  the rank at the other end
     * @param rail  the rail
     * @param cause why (time-out without acknowledgement or heartbeat, reset, closed)
     */
    public record RailFailure(int peer, int rail, String cause) {
    }

    /**
     * A rail connection to one peer that came back after it was given up: reconnected, and carrying traffic again.
     *
     * @param peer       the rank at the other end
     * @param rail       the rail
     * @param downMillis how long it was down, from being given up to being used again
     */
    public record RailRecovery(int peer, int rail, long downMillis) {
    }

    private final AtomicLongArray bytesSent;
    private final AtomicLongArray framesSent;
    private final AtomicLongArray bytesReceived;
    private final List<RailFailure> failures = new CopyOnWriteArrayList<>();
    private final List<RailRecovery> recoveries = new CopyOnWriteArrayList<>();
    /** Owner thread only: time spent inside the transport's put (handing fragments over), and how many puts. */
    private long postNanos;
    private long posts;

    public RailCounters(int rails) {
        bytesSent = new AtomicLongArray(rails);
        framesSent = new AtomicLongArray(rails);
        bytesReceived = new AtomicLongArray(rails);
    }

    public int rails() {
        return bytesSent.length();
    }

    public void sent(int rail, long bytes) {
        bytesSent.getAndAdd(rail, bytes);
        framesSent.getAndIncrement(rail);
    }

    public void received(int rail, long bytes) {
        bytesReceived.getAndAdd(rail, bytes);
    }

    /**
     * Records one put that took {@code nanos} to hand over (owner thread only). With the time a collective took,
     * this splits it as paper 004 does: time to post versus time waiting for completion.
     */
    public void posted(long nanos) {
        postNanos += nanos;
        posts++;
    }

    /** Total time the owner spent posting puts (owner thread only). */
    public long postNanos() {
        return postNanos;
    }

    /** Puts posted so far (owner thread only). */
    public long posts() {
        return posts;
    }

    /** Records that the connection to {@code peer} on {@code rail} was given up. */
    public void railFailed(int peer, int rail, String cause) {
        failures.add(new RailFailure(peer, rail, cause));
    }

    /** Records that the connection to {@code peer} on {@code rail} was reconnected after {@code downMillis}. */
    public void railRecovered(int peer, int rail, long downMillis) {
        recoveries.add(new RailRecovery(peer, rail, downMillis));
    }

    public long bytesSent(int rail) {
        return bytesSent.get(rail);
    }

    public long framesSent(int rail) {
        return framesSent.get(rail);
    }

    public long bytesReceived(int rail) {
        return bytesReceived.get(rail);
    }

    /** Every rail connection given up so far, oldest first. */
    public List<RailFailure> failures() {
        return List.copyOf(failures);
    }

    /** Every rail connection that came back after a failure, oldest first. */
    public List<RailRecovery> recoveries() {
        return List.copyOf(recoveries);
    }

    /** Rails that are configured but have neither sent nor received a byte: a misconfigured or unused network. */
    public List<Integer> idleRails() {
        List<Integer> idle = new ArrayList<>();
        for (int r = 0; r < rails(); r++) {
            if (bytesSent(r) == 0 && bytesReceived(r) == 0) {
                idle.add(r);
            }
        }
        return idle;
    }

    /** One line per rail (bytes and frames sent, bytes received), then idle rails, failures and recoveries, for people. */
    public String report() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rails(); r++) {
            sb.append(String.format(Locale.ROOT, "rail %d: sent %d bytes in %d frames, received %d bytes%n", r,
                    bytesSent(r), framesSent(r), bytesReceived(r)));
        }
        List<Integer> idle = idleRails();
        if (!idle.isEmpty()) {
            sb.append("configured but carried nothing: rail").append(idle.size() > 1 ? "s " : " ")
                    .append(idle).append(System.lineSeparator());
        }
        for (RailFailure f : failures) {
            sb.append("failed: rail ").append(f.rail()).append(" to rank ").append(f.peer()).append(": ")
                    .append(f.cause()).append(System.lineSeparator());
        }
        for (RailRecovery r : recoveries) {
            sb.append("back: rail ").append(r.rail()).append(" to rank ").append(r.peer()).append(" after ")
                    .append(r.downMillis()).append(" ms down").append(System.lineSeparator());
        }
        return sb.toString();
    }
}
