package io.railcoll;

/**
 * A duplication started by {@link Communicator#idup()} (MPI_Comm_idup): the non-blocking all-gather on the parent
 * that every rank takes part in, and the new communicator, which may be used once that has finished. The parent may
 * run other collectives meanwhile, in the same order on every rank.
 */
public final class DupInFlight {
    /** The check of the all-gather's answer: that every rank called a dup here; throws a {@link MismatchException}. */
    @FunctionalInterface
    interface Check {
        void run();
    }

    private final Request request;
    private final Communicator made;
    private final Check check;
    private boolean checked;

    DupInFlight(Request request, Communicator made, Check check) {
        this.request = request;
        this.made = made;
        this.check = check;
    }

    /** The all-gather on the parent; the new communicator exists once it has finished (await or test it). */
    public Request request() {
        return request;
    }

    /**
     * The new communicator (which the caller closes), once {@link #request()} has finished.
     *
     * @throws IllegalStateException before the request has finished: nothing may run on the new communicator yet
     * @throws RailcollException     the all-gather's failure (the new communicator is closed then)
     * @throws MismatchException     when a rank called something other than a dup at this point of the parent's
     *                               collectives (the new communicator is closed then)
     */
    public synchronized Communicator communicator() {
        if (!checked) {
            boolean finished;
            try {
                finished = request.test();
                if (finished) {
                    check.run();
                }
            } catch (RuntimeException e) {
                made.close(); // the all-gather failed or the ranks disagree: nobody will use the new communicator
                throw e;
            }
            if (!finished) {
                throw new IllegalStateException("idup of " + made.name() + ": the duplication has not finished; wait"
                        + " for or test its request first");
            }
            checked = true;
        }
        return made;
    }
}
