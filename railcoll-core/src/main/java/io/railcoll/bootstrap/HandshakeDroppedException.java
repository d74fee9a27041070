package io.railcoll.bootstrap;

import java.io.IOException;

/**
 * The acceptor closed the connection before the handshake ended without refusing it: it had no room or time left for
 * it (a listener under a flood drops the oldest unauthenticated connections), or it is shutting down. Unlike a
 * refusal, connecting again may succeed, so connectors retry until their deadline.
 */
public final class HandshakeDroppedException extends IOException {
    public HandshakeDroppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
