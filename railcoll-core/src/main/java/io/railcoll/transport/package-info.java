/**
 * Moving bytes between ranks: the frame format every transport shares, and the contracts between a transport
 * and whoever consumes its frames (the engine). Sub-packages hold the transports: {@code tcp} (rails),
 * {@code shm} (shared memory inside a node). Transports never import schedules, algorithms or selection.
 */
package io.railcoll.transport;
