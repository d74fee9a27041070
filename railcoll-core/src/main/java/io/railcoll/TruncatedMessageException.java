package io.railcoll;

/**
 * A receive's buffer was shorter than the message that matched it (MPI's truncation error): the buffer holds the
 * message's first bytes, the rest was dropped. Unlike the other run-time failures it ends only that receive: the
 * communicator stays usable.
 */
public class TruncatedMessageException extends RailcollException {
    private final Status status;
    private final long messageBytes;

    public TruncatedMessageException(String message, Status status, long messageBytes) {
        super(message);
        this.status = status;
        this.messageBytes = messageBytes;
    }

    /** Who sent the message, its tag, and how many bytes the buffer received. */
    public Status status() {
        return status;
    }

    /** The length of the whole message. */
    public long messageBytes() {
        return messageBytes;
    }
}
