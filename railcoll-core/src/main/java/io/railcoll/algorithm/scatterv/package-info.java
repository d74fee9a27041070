/** Scatter with per-rank counts (MPI_Scatterv): the root's block i, of its own size, to rank i. */
package io.railcoll.algorithm.scatterv;
