package io.railcoll;

/** A peer process is gone: its connection closed or reset without a goodbye, or its process died. */
public class PeerLostException extends RailcollException {
    private final int peerRank;

    public PeerLostException(int peerRank, String message) {
        super(message);
        this.peerRank = peerRank;
    }

    public PeerLostException(int peerRank, String message, Throwable cause) {
        super(message, cause);
        this.peerRank = peerRank;
    }

    public int peerRank() {
        return peerRank;
    }
}
