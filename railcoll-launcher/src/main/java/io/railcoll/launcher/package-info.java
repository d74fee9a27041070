/**
 * Emulates a cluster on one machine: spawns one JVM per rank grouped into nodes, gives each node its own rail
 * addresses (loopback aliases, or network namespaces with rate-limited rails), serves the rendezvous, forwards
 * every rank's output with a prefix, and brings the whole job down when one rank fails.
 */
package io.railcoll.launcher;
