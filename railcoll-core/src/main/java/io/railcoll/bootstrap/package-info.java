/**
 * Getting a job together: who am I (from railcoll's launcher, Open MPI's mpirun or Slurm's srun), the
 * rendezvous where ranks publish and learn each other's rail endpoints and nodes, and the handshake that
 * every connection starts with. Knows nothing of collectives, schedules or the engine.
 */
package io.railcoll.bootstrap;
