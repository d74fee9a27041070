/** Gather with per-rank counts (MPI_Gatherv): every rank's block, of its own size, to the root. */
package io.railcoll.algorithm.gatherv;
