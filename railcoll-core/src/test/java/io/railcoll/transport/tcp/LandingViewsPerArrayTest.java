package io.railcoll.transport.tcp;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Memory over a {@code byte[]} lands through one view of its array, whatever segment object names it: the engine's
 * records of frames read ahead of their call are slices of a few shared arrays, and a backlog of thousands of them
 * made a view and two references per early frame while each had its own (CI's PerCallAllocationTest, 93 bytes a
 * call). The bytes land where the slice is.
 */
class LandingViewsPerArrayTest {

    @Test
    void manySlicesOfOneArrayShareOneViewAndLandInTheirPlace() {
        SegmentViews views = new SegmentViews();
        byte[] array = new byte[64 * 1000];
        MemorySegment whole = MemorySegment.ofArray(array);
        ByteBuffer first = null;
        for (int i = 0; i < 1000; i++) { // far more than the cache's entries
            MemorySegment slice = whole.asSlice(64L * i, 64);
            ByteBuffer v = views.of(slice, 8, 16);
            if (first == null) {
                first = v;
            }
            assertSame(first, v, "slice " + i + " got a view of its own");
            assertEquals(16, v.remaining());
            v.put((byte) i).put((byte) (i >> 8));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals((byte) i, array[64 * i + 8], "slice " + i + "'s first byte");
            assertEquals((byte) (i >> 8), array[64 * i + 9], "slice " + i + "'s second byte");
        }
    }

    @Test
    void aNewSegmentOverTheSameArrayFindsItsView() {
        SegmentViews views = new SegmentViews();
        byte[] array = new byte[4096];
        ByteBuffer first = views.of(MemorySegment.ofArray(array), 0, 100);
        assertSame(first, views.of(MemorySegment.ofArray(array), 100, 200));
    }

    @Test
    void nativeMemoryKeepsItsOwnView() {
        SegmentViews views = new SegmentViews();
        MemorySegment direct = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(128)).asSlice(16);
        ByteBuffer d = views.of(direct, 0, 8);
        assertSame(d, views.of(direct, 8, 8));
        d.put((byte) 7);
        assertEquals(7, direct.get(ValueLayout.JAVA_BYTE, 8));
    }
}
