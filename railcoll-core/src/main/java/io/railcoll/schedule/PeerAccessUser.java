package io.railcoll.schedule;

/**
 * An algorithm whose programs hold single-copy steps ({@link Op.PeerRead}, {@link Op.PeerWrite}): besides the node
 * region it needs cross-memory attach between every two ranks of the node, which the node agrees on once at start-up;
 * the selector offers it only where the capability {@link #TRANSPORT} is enabled (decision 0143).
 */
public interface PeerAccessUser extends NodeRegionUser {
    /** The capability: every rank may read and write every node-mate's memory with cross-memory attach. */
    String TRANSPORT = "cma";
}
