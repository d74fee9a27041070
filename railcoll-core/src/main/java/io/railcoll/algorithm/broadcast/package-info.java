/** Broadcast algorithms: the root's message to every rank. */
package io.railcoll.algorithm.broadcast;
