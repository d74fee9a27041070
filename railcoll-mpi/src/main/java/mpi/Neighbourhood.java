package mpi;

/**
 * Who a process of a topology exchanges with in a neighbourhood collective, in MPI's order: block {@code i} of the
 * receive buffer comes from {@code sources[i]} (a message tagged {@code recvTags[i]}), block {@code i} of the send
 * buffer goes to {@code destinations[i]} (tagged {@code sendTags[i]}); {@code MPI.PROC_NULL} is a slot that sends or
 * receives nothing. Messages between the same two processes with the same tag pair up in the order they are posted
 * (point-to-point is non-overtaking), which is MPI's pairing for repeated edges; the tags tell apart what the order
 * cannot, the two sides of a periodic Cartesian dimension of one or two processes.
 */
record Neighbourhood(int[] sources, int[] recvTags, int[] destinations, int[] sendTags) {

    /** A graph's or distributed graph's neighbourhood: every message tagged 0, paired by order. */
    static Neighbourhood ordered(int[] sources, int[] destinations) {
        return new Neighbourhood(sources.clone(), new int[sources.length], destinations.clone(),
                new int[destinations.length]);
    }

    /** How many blocks this process receives (MPI's indegree, counting repeated edges and {@code PROC_NULL} slots). */
    int in() {
        return sources.length;
    }

    /** How many blocks this process sends (MPI's outdegree). */
    int out() {
        return destinations.length;
    }
}
