/** All-to-all with a count per pair of ranks (MPI_Alltoallv): rank i's block for rank j, of its own size, to rank j. */
package io.railcoll.algorithm.alltoallv;
