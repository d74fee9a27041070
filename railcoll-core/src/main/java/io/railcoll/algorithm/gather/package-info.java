/** Gather algorithms: every rank's block to the root (paper 000 section 5.1.1). */
package io.railcoll.algorithm.gather;
