package io.railcoll;

/** Another rank failed a collective and told this one; the message carries that rank's reason. */
public class CollectiveAbortedException extends RailcollException {
    private final int originRank;

    public CollectiveAbortedException(int originRank, String message) {
        super(message);
        this.originRank = originRank;
    }

    public int originRank() {
        return originRank;
    }
}
