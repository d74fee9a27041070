package io.railcoll.transport.tcp;

import io.railcoll.transport.FrameHeader;
import io.railcoll.transport.SendCompletion;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A connection's reused views (decision 0127) must not keep a program's buffers alive once the program dropped them
 * (decision 0221): the check jobs' in-place all-gathers, a fresh 8 MB {@code byte[]} per call on 8 ranks, ran out of a
 * 256 MB heap while every connection held its last 32 landing arrays and every pooled frame its last send array. A
 * buffer the program keeps still gets its view again (no allocation per frame in a loop of like calls).
 */
class CallerMemoryNotRetainedTest {

    @Test
    void landingViewsDropAnArrayTheProgramDropped() {
        SegmentViews views = new SegmentViews();
        WeakReference<byte[]> array = landOnce(views);
        collect(array);
        assertNull(array.get(), "the landing views kept a dropped array alive");
    }

    @Test
    void aKeptMemoryGetsItsViewAgain() {
        SegmentViews views = new SegmentViews();
        MemorySegment kept = MemorySegment.ofArray(new byte[4096]);
        ByteBuffer first = views.of(kept, 0, 100);
        assertSame(first, views.of(kept, 100, 200));
    }

    @Test
    void aPooledFrameDropsTheArrayItLastSentFrom() {
        OutFrame frame = new OutFrame();
        WeakReference<byte[]> array = sendOnce(frame);
        frame.clear(); // back in its connection's pool
        collect(array);
        assertNull(array.get(), "a pooled frame kept a dropped send array alive");
    }

    private static WeakReference<byte[]> landOnce(SegmentViews views) {
        byte[] a = new byte[1 << 20];
        views.of(MemorySegment.ofArray(a), 0, 1000);
        return new WeakReference<>(a);
    }

    private static WeakReference<byte[]> sendOnce(OutFrame frame) {
        byte[] a = new byte[1 << 20];
        FrameHeader h = new FrameHeader();
        h.type = FrameHeader.DATA;
        h.fragLength = 1000;
        frame.set(h, MemorySegment.ofArray(a), 0, new SendCompletion());
        return new WeakReference<>(a);
    }

    /** Collections until {@code ref} is cleared, a few at most (a collection clears what is only weakly held). */
    private static void collect(WeakReference<?> ref) {
        for (int i = 0; i < 10 && ref.get() != null; i++) {
            System.gc();
        }
    }
}
