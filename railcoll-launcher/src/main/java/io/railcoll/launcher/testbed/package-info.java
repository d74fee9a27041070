/**
 * The network-namespace cluster testbed: one namespace per emulated node, one Linux bridge per rail in a
 * separate "switch" namespace, veth links with rate limits in both directions and an optional impairment (tc netem, or nftables rules where
 * the kernel has no netem).
 *
 * <p>It drives the system's {@code ip} and {@code tc} (iproute2), and {@code nft} for an emulated impairment, as
 * child processes and needs root. It
 * imports only the JDK: no collective, transport or engine code; the launcher decides what runs inside
 * the namespaces. See {@code docs/testbed.md} for the topology, addressing and qdisc choice.
 */
package io.railcoll.launcher.testbed;
