package io.railcoll.schedule;

/**
 * An all-gather (or all-gatherv) whose programs stay right in place (MPI_IN_PLACE): when SEND is this rank's own
 * block of RECV ({@link InPlace#ownOffset}), no op of any rank writes that block with other bytes, nor writes it
 * while something may still read it there. The engine then binds SEND to that block and copies nothing; an
 * algorithm without this mark runs in place with SEND copied into memory of the call's own first, as a reduction in
 * place does (decision 0220). The claim is proved per shape by {@link ScheduleChecker#checkInPlace}, and the tests
 * hold every marked algorithm of the catalog to it.
 */
public interface OwnBlockInPlace extends Algorithm {
}
