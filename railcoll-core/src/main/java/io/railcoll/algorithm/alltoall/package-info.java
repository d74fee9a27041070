/** All-to-all algorithms: block j of rank i to rank j, for all i and j (paper 000 section 5.1.3). */
package io.railcoll.algorithm.alltoall;
