package mpi;

/** What {@code GraphComm.getDistGraphNeighbors} returns: a process's in- and out-neighbours and their weights. */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, boolean weighted) {
        this.sources = sources.clone();
        this.sourceWeights = sourceWeights.clone();
        this.destinations = destinations.clone();
        this.destWeights = destWeights.clone();
        this.weighted = weighted;
    }

    public int getInDegree() {
        return sources.length;
    }

    public int getOutDegree() {
        return destinations.length;
    }

    public boolean isWeighted() {
        return weighted;
    }

    public int getSource(int i) {
        return sources[i];
    }

    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    public int getDestination(int i) {
        return destinations[i];
    }

    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
