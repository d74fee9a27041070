package io.railcoll.bench.peer;

/**
 * A peer benchmark that was available could not produce results: it did not compile, did not finish in
 * time, exited with an error or reported wrong bytes. The message says which and shows the tool's own
 * output. (A peer that is not installed is not an error: {@link OpenMpiPeer#locate} says so in words.)
 */
public class PeerException extends RuntimeException {
    public PeerException(String message) {
        super(message);
    }

    public PeerException(String message, Throwable cause) {
        super(message, cause);
    }
}
