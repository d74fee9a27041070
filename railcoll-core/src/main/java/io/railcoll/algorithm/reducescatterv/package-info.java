/**
 * Reduce-scatter with per-rank counts (MPI_Reduce_scatter): block r of every rank's vector, of its own size, combined
 * on rank r.
 */
package io.railcoll.algorithm.reducescatterv;
