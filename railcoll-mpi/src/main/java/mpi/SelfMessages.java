package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Point-to-point on a one-rank communicator ({@code COMM_SELF}, a singleton {@code COMM_WORLD}): messages to itself,
 * matched as MPI matches them (receives in posting order, messages in sending order). A send is copied at once, so
 * it finishes at once, except a synchronous one, which finishes when a receive takes it. A wait that nothing on this
 * rank can end (a receive with no message, a synchronous send with no receive) fails at once: there is no other rank
 * to send or receive. One thread at a time (the communicator's lock).
 */
final class SelfMessages {
    /** A message sent and not yet received: its tag and bytes, and the synchronous send waiting for it, if any. */
    private record Sent(int tag, byte[] bytes, Flag sender) {
    }

    /** A receive posted before its message: its buffer, tag, and what it got. */
    private static final class Posted {
        final MemorySegment into;
        final int tag;
        final Flag done = new Flag();
        Status status;
        /** The length of a message longer than the buffer, else 0. */
        long truncatedBy;

        Posted(MemorySegment into, int tag) {
            this.into = into;
            this.tag = tag;
        }
    }

    /** Set once the operation has finished. */
    private static final class Flag {
        boolean set;
    }

    private final List<Sent> unexpected = new ArrayList<>();
    private final List<Posted> posted = new ArrayList<>();

    Pending send(MemorySegment data, int tag, boolean synchronous) {
        Sent m = new Sent(tag, data.toArray(ValueLayout.JAVA_BYTE), synchronous ? new Flag() : null);
        for (Iterator<Posted> it = posted.iterator(); it.hasNext(); ) {
            Posted r = it.next();
            if (matches(r.tag, tag)) {
                it.remove();
                deliver(m, r);
                return Pending.SENT;
            }
        }
        unexpected.add(m);
        return m.sender == null ? Pending.SENT
                : waitFor(m.sender, null, "a synchronous send (tag " + tag + ") to this rank, which posted no receive for it");
    }

    Pending recv(MemorySegment into, int tag) {
        Posted r = new Posted(into, tag);
        for (Iterator<Sent> it = unexpected.iterator(); it.hasNext(); ) {
            Sent m = it.next();
            if (matches(tag, m.tag)) {
                it.remove();
                deliver(m, r);
                return waitFor(r.done, r, "");
            }
        }
        posted.add(r);
        return waitFor(r.done, r, "a receive (" + (tag == MPI.ANY_TAG ? "any tag" : "tag " + tag) + ") on a one-rank"
                + " communicator where no such message was sent");
    }

    Status probe(int tag) {
        for (Sent m : unexpected) {
            if (matches(tag, m.tag)) {
                return Status.of(0, m.tag, MPI.SUCCESS, m.bytes.length);
            }
        }
        return null;
    }

    /** Takes the earliest message with {@code tag} out of matching (a matched probe), or null when there is none. */
    Backend.Matched improbe(int tag) {
        for (Iterator<Sent> it = unexpected.iterator(); it.hasNext(); ) {
            Sent m = it.next();
            if (matches(tag, m.tag)) {
                it.remove();
                return new Backend.Matched() {
                    @Override
                    public Status status() {
                        return Status.of(0, m.tag, MPI.SUCCESS, m.bytes.length);
                    }

                    @Override
                    public Pending irecv(MemorySegment into) {
                        Posted r = new Posted(into, m.tag);
                        deliver(m, r);
                        return waitFor(r.done, r, "");
                    }
                };
            }
        }
        return null;
    }

    private static boolean matches(int wanted, int tag) {
        return wanted == MPI.ANY_TAG || wanted == tag;
    }

    private static void deliver(Sent m, Posted r) {
        long n = Math.min(m.bytes.length, r.into.byteSize());
        MemorySegment.copy(MemorySegment.ofArray(m.bytes), 0, r.into, 0, n);
        r.status = Status.of(0, m.tag, MPI.SUCCESS, n);
        r.done.set = true;
        if (m.sender != null) {
            m.sender.set = true;
        }
        if (m.bytes.length > r.into.byteSize()) {
            r.truncatedBy = m.bytes.length;
        }
    }

    private Pending waitFor(Flag done, Posted r, String never) {
        return new Pending() {
            @Override
            public boolean test() {
                check();
                return done.set;
            }

            @Override
            public void await() {
                if (!done.set) {
                    if (r != null) {
                        posted.remove(r); // the receive failed: a later message must not land in it
                    }
                    throw new IllegalStateException("waiting for " + never + ": it would wait forever");
                }
                check();
            }

            private void check() {
                if (done.set && r != null && r.truncatedBy > 0) {
                    throw new io.railcoll.TruncatedMessageException("the message of " + r.truncatedBy + " bytes (tag "
                            + r.status.getTag() + ") is longer than the " + r.into.byteSize() + "-byte buffer",
                            new io.railcoll.Status(0, r.status.getTag(), r.into.byteSize()), r.truncatedBy);
                }
            }

            @Override
            public Status status() {
                return r == null ? Status.empty() : r.status;
            }

            @Override
            public boolean cancel() {
                if (r == null || !posted.remove(r)) {
                    return false;
                }
                r.status = Status.empty();
                r.status.markCancelled();
                done.set = true;
                return true;
            }

            @Override
            public boolean cancellable() {
                return true;
            }
        };
    }
}
