/**
 * Getting a job together: who am I and how do I meet the other ranks. A {@code BootstrapSource}, chosen by
 * {@code BootstrapSources} from the environment, gives the identity and exchanges every rank's record: through a
 * launcher's key-value store (PMIx through libpmix by FFM, PMI-1 in Java) or through the rendezvous (railcoll's
 * variables, Slurm's environment, torchrun-style variables). Also the handshake that every connection starts with;
 * {@link io.railcoll.bootstrap.HandshakeAcceptor} runs the handshakes of a listener's connections concurrently, with a
 * deadline and a cap, so strangers cost neither time nor threads.
 * Knows nothing of collectives, schedules or the engine.
 */
package io.railcoll.bootstrap;
