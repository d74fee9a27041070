package io.railcoll;

/**
 * What a point-to-point receive or probe found: the rank that sent the message (in the communicator it was received
 * on), its tag and its length in bytes. For a send's request: the destination, the tag and the bytes sent.
 */
public record Status(int source, int tag, long count) {
}
