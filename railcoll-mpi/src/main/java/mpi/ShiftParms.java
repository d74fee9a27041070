package mpi;

/** What {@code CartComm.shift} returns: the ranks to receive from and send to. */
public final class ShiftParms {
    private final int rankSource;
    private final int rankDest;

    ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    public int getRankSource() {
        return rankSource;
    }

    public int getRankDest() {
        return rankDest;
    }
}
