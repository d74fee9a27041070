/**
 * Who is where: ranks, nodes, local ranks. Pure data; imports nothing but {@code java.util}.
 */
package io.railcoll.topology;
