package io.railcoll;

import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.Operator;
import io.railcoll.reduce.Reduction;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;

import java.lang.foreign.MemorySegment;
import java.util.function.LongSupplier;

/**
 * What a communicator's call collaborators ({@link PointToPointCalls}, {@link VariableCollectives},
 * {@link ReductionCalls}, {@link Derivations}) use of the communicator itself: its open check, its root and buffer
 * checks, and its one way to shape, post, run and number a collective (the shapes it keeps, selection, its staging
 * memory, its engine). It is the narrow view of {@link RailcollCommunicator}'s plumbing, which stays there
 * (decisions 0208, 0211); one implementation, made once per communicator, so a call through it allocates nothing and
 * stays monomorphic.
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

    /**
     * The algorithm selection picks for {@code shape}, ready to post: one that multicasts opens the communicator's
     * multicast group first if it is not yet open (collective: every rank selects it at this same call, whether it
     * runs the call blocking or not). Every post of a selected algorithm goes through here or {@link #run}.
     */
    Algorithm select(Shape shape);

    /** Runs a call (blocking) or starts it (non-blocking) as selection picks; returns its sequence number. */
    long run(Shape shape, MemorySegment send, MemorySegment recv, boolean nonBlocking);

    /**
     * As {@link #run} (blocking), for a schedule that combines data with {@code reduction}; {@code stageSend}: in
     * place.
     */
    long runReduction(Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction, boolean stageSend);

    /**
     * The shape of a reduction (one master group, the type's element size, the operator's commutativity); the last
     * one per collective is kept apart from {@link #shape}'s, so a loop of like calls allocates none.
     */
    Shape reductionShape(Collective collective, long bytes, ElementType type, Operator op, int root);

    /** Posts a call to the engine; a blocking one is then awaited; returns its sequence number. */
    long post(Algorithm algorithm, Shape shape, MemorySegment send, MemorySegment recv, Reduction reduction,
              boolean stageSend, boolean nonBlocking);

    /**
     * Starts a non-blocking call whose RECV ({@code recvBytes}) is memory of its engine slot, copied into
     * {@code resultTo} (null: dropped) when it finishes; {@code stageSend} copies SEND there too (decision 0090).
     */
    long postStaged(Shape shape, MemorySegment send, boolean stageSend, long recvBytes, MemorySegment resultTo,
                    Reduction reduction);

    /**
     * Throws {@link IllegalArgumentException} when {@code recv} holds fewer than {@code needed} bytes or is
     * read-only; {@code op} names the call.
     */
    void checkFits(String op, MemorySegment recv, long needed);

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
