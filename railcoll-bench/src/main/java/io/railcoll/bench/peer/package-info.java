/**
 * Peer libraries measured in the same run as railcoll, so a table can say how railcoll compares with
 * what people use today: Open MPI, through the small C benchmark {@code peer_bench.c} (shipped as a resource beside
 * these classes), built with {@code mpicc} and started with {@code mpirun}; and MPJ Express, through
 * {@code MpjBench.java} (also a resource), compiled against MPJ's own jar and started with MPJ's launcher. Both time
 * each call as railcoll does and count the rails' bytes around each size ({@code io.railcoll.bench.rails}).
 *
 * <p>It starts processes but never runs railcoll's own collectives; it may import
 * {@code io.railcoll.bench.report} (the results it returns) and core's names, not the engine or transports.
 */
package io.railcoll.bench.peer;
