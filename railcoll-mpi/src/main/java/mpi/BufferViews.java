package mpi;

import java.lang.ref.WeakReference;

/**
 * The {@link UserBuffer} views of the buffers a communicator's blocking calls were last given, so that a loop of calls
 * on the same arrays and buffers wraps each once instead of once per call (decision 0136): a direct buffer's
 * duplicate and {@code MemorySegment.ofBuffer}, an array's {@code MemorySegment.ofArray}, and the leading slice a
 * call of the same count takes of it.
 *
 * <p>Both the program's buffer and its view are held weakly: a view holds its buffer (the segment keeps it alive), so
 * a view held strongly would keep every buffer the program ever passed. A view nothing else holds is cleared by the
 * next collection and made again at the next call with that buffer; a buffer the program drops goes with its view.
 * The table is small and replaced round-robin: a program that cycles through more buffers than {@link #SLOTS} makes
 * views as before. {@code boolean[]} arrays are never cached (their view is a copy made at each call).
 *
 * <p>Used only by the reusable {@link Call} of one communicator, under its call lock: one thread at a time.
 */
final class BufferViews {
    /** Buffers remembered: a call's send and receive buffers, and a few calls' worth besides. */
    static final int SLOTS = 8;

    @SuppressWarnings("unchecked")
    private final WeakReference<Object>[] buffers = new WeakReference[SLOTS];
    @SuppressWarnings("unchecked")
    private final WeakReference<UserBuffer>[] views = new WeakReference[SLOTS];
    private int next;

    /** The view of {@code buffer} (an array other than {@code boolean[]}, or a {@link java.nio.Buffer}; not null). */
    UserBuffer of(Object buffer) {
        for (int i = 0; i < SLOTS; i++) {
            WeakReference<Object> b = buffers[i];
            if (b != null && b.get() == buffer) {
                UserBuffer v = views[i].get();
                if (v != null) {
                    return v;
                }
                return remember(i, buffer);
            }
        }
        int slot = next;
        next = (next + 1) % SLOTS;
        return remember(slot, buffer);
    }

    private UserBuffer remember(int slot, Object buffer) {
        UserBuffer v = UserBuffer.view(buffer);
        buffers[slot] = new WeakReference<>(buffer);
        views[slot] = new WeakReference<>(v);
        return v;
    }
}
