/**
 * Open MPI 5.0's Java API (the bindings' package {@code mpi}) in pure Java over railcoll: {@link mpi.MPI} joins the
 * job at {@code Init} and binds {@link mpi.MPI#COMM_WORLD} to railcoll's {@code Communicator}; {@link mpi.Comm}
 * turns the bindings' (buffer, count, datatype) arguments into packed bytes ({@code TypeMap}, {@code Transfer},
 * {@code Staging}) and hands them to a {@code Backend}, and {@code Reductions} maps ops onto railcoll's operators.
 * A non-blocking call is an {@code Operation} (a backend's {@code Pending}, its own staging, the work left for its
 * end) behind a {@link mpi.Request}; {@code Completions} drives arrays of them.
 * Public types are the bindings' and never expose a railcoll type. Imports only railcoll-core's public API
 * ({@code io.railcoll}, {@code io.railcoll.reduce}, and {@code io.railcoll.bootstrap.BootstrapSources} to join the
 * job); docs/mpi.md says what is provided.
 */
package mpi;
