package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.lang.foreign.MemorySegment;
import java.util.function.LongSupplier;

/**
 * What a communicator's call collaborators ({@link PointToPointCalls}, {@link VariableCollectives},
 * {@link Derivations}) use of the communicator itself: its open check, its root check, and its one way to shape, run
 * and number a collective (the shapes it keeps, selection, its staging memory, its engine). It is the narrow view of
 * {@link RailcollCommunicator}'s plumbing, which stays there (decisions 0208, 0211); one implementation, made once per
 * communicator, so a call through it allocates nothing and stays monomorphic.
 *
 * <p>Threading: inside the communicator's thread contract ({@link CallGate}), as the communicator's own methods.
 */
interface CallPlumbing {
    /** Throws {@link IllegalStateException} when the communicator is closed. */
    void requireOpen();

    /** Throws {@link IllegalArgumentException} when {@code root} is not a rank of the communicator. */
    void checkRoot(int root);

    /** The shape of a call; the last one per collective is kept, so a loop of like calls allocates none. */
    Shape shape(Collective collective, long blockBytes, int root);

    /** Runs a call (blocking) or starts it (non-blocking) as selection picks; returns its sequence number. */
    long run(Shape shape, MemorySegment send, MemorySegment recv, boolean nonBlocking);

    /**
     * As {@link #run} (blocking), for a schedule that combines data with {@code reduction}; {@code stageSend}: in
     * place.
     */
    long runReduction(Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction, boolean stageSend);

    /** At least {@code bytes} of the communicator's native staging memory (blocking calls only). */
    MemorySegment staging(long bytes);

    /** The call's type and operator, checked to go together; the last pair is kept, so loops allocate none. */
    Reduction reduction(ElementType type, Operator op);

    /** The request of call {@code seq}, started by {@code call} inside the thread contract. */
    Request request(long seq, String call);

    /**
     * The non-blocking form of a call: {@code start} checks the arguments and posts the call inside the thread
     * contract; its sequence number becomes the request.
     */
    Request start(String call, LongSupplier start);
}
