/**
 * Building blocks of the node-aware (SMP-aware and multi-connection aware) algorithms: the blocks one message
 * carries ({@link io.railcoll.algorithm.node.PackedBlocks}), where a rank keeps them
 * ({@link io.railcoll.algorithm.node.Region}), how a node's ranks split into groups with one master each
 * ({@link io.railcoll.algorithm.node.NodeShares}), a program builder that records each op's phase
 * ({@link io.railcoll.algorithm.node.PhasedProgramBuilder}), and the shared-memory phases those algorithms share,
 * program and design traffic side by side: the node gather ({@link io.railcoll.algorithm.node.NodeGather}) and the
 * node broadcast ({@link io.railcoll.algorithm.node.NodeBroadcast}). Imports only {@code schedule},
 * {@code topology} and {@code java.util}.
 */
package io.railcoll.algorithm.node;
