package mpi;

import io.railcoll.MessageRequest;

/**
 * A point-to-point send or receive of railcoll-core ({@link MessageRequest}) as a {@link Request}'s operation:
 * progress by its test and wait, a receive's status from the message it got, cancel for a receive no message has
 * matched yet. A send's status is empty, as Open MPI's is.
 */
final class MessagePending implements Pending {
    /** The request adapted; set anew when a reused operation starts another message (decision 0159). */
    private MessageRequest request;

    MessagePending(MessageRequest request) {
        this.request = request;
    }

    /** This adapter, over {@code next} from now on: for an operation reused by another iSend or iRecv. */
    MessagePending over(MessageRequest next) {
        this.request = next;
        return this;
    }

    @Override
    public boolean test() {
        return request.test();
    }

    @Override
    public void await() {
        request.await();
    }

    @Override
    public Status status() {
        if (!request.isReceive()) {
            return Status.empty();
        }
        if (request.isCancelled()) {
            Status s = Status.empty();
            s.markCancelled();
            return s;
        }
        // railcoll's fields one by one: request.status() would make a record of its own per status (decision 0168)
        return Status.of(request.statusSource(), request.statusTag(), MPI.SUCCESS, request.statusCount());
    }

    @Override
    public boolean cancel() {
        return request.cancel();
    }

    @Override
    public boolean cancellable() {
        return true;
    }

    /** The bindings' status of what railcoll received or probed. */
    static Status status(io.railcoll.Status s) {
        return Status.of(s.source(), s.tag(), MPI.SUCCESS, s.count());
    }
}
