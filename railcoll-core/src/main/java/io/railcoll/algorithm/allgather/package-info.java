/** All-gather algorithms: every rank's block to every rank (paper 000 section 5.1.2, paper 001 section 6.1). */
package io.railcoll.algorithm.allgather;
