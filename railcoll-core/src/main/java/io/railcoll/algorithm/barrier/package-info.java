/** Barrier algorithms: no rank leaves before every rank has entered; zero-byte puts as signals. */
package io.railcoll.algorithm.barrier;
