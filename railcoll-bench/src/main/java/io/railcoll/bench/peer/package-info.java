/**
 * Peer libraries measured in the same run as railcoll, so a table can say how railcoll compares with
 * what people use today. Today: Open MPI, through the small C benchmark {@code peer_bench.c} (shipped
 * as a resource beside these classes), built with {@code mpicc} and started with {@code mpirun}.
 *
 * <p>It starts processes but never runs railcoll's own collectives; it may import
 * {@code io.railcoll.bench.report} (the results it returns) and core's names, not the engine or transports.
 */
package io.railcoll.bench.peer;
