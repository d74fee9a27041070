/**
 * Getting a job together: who am I (from railcoll's launcher, Open MPI's mpirun or Slurm's srun), the
 * rendezvous where ranks publish and learn each other's rail endpoints and nodes, and the handshake that
 * every connection starts with; {@link io.railcoll.bootstrap.HandshakeAcceptor} runs the handshakes of a listener's
 * connections concurrently, with a deadline and a cap, so strangers cost neither time nor threads. Knows nothing of
 * collectives, schedules or the engine.
 */
package io.railcoll.bootstrap;
