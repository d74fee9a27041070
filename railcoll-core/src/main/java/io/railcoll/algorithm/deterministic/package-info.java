/**
 * Algorithms whose floating-point results do not depend on the placement, the rails or the algorithm chosen: every
 * element is combined in one fixed order, {@code ((s0 op s1) op s2) ... op s(N-1)}, the order of a sequential loop
 * over the ranks. The communicator's deterministic option selects only these for its reductions (decision 0091).
 */
package io.railcoll.algorithm.deterministic;
