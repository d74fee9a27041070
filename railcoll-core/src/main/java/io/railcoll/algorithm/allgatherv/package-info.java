/** All-gather with per-rank counts (MPI_Allgatherv): every rank's block, of its own size, to every rank. */
package io.railcoll.algorithm.allgatherv;
