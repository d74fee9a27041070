package io.railcoll.engine;

import io.railcoll.transport.FrameHeader;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backlog of small frames read ahead of their calls is held in slices of a few shared arrays, so a connection's
 * landing views (one per array) serve all of them: with an array per record, thousands of records in turn missed the
 * views' cache at every frame (CI's PerCallAllocationTest). Slices do not overlap, and a frame larger than a kept record
 * may be has an array of its own.
 */
class EarlyFramesSlabTest {

    @Test
    void aThousandSmallFramesShareTwoArraysWithoutOverlap() {
        EarlyFrames frames = new EarlyFrames();
        Set<Object> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        long lastEnd = -1;
        Object lastArray = null;
        for (int i = 0; i < 1000; i++) {
            FrameHeader h = new FrameHeader();
            h.fragLength = 33 + i % 100; // odd sizes: slices are rounded up to 8 bytes
            MemorySegment m = frames.hold(h);
            assertTrue(m.byteSize() >= h.fragLength, "frame " + i + " got " + m.byteSize() + " bytes");
            Object array = m.heapBase().orElseThrow();
            if (array == lastArray) {
                assertTrue(m.address() >= lastEnd, "frame " + i + " overlaps the frame before it");
            }
            arrays.add(array);
            lastArray = array;
            lastEnd = m.address() + m.byteSize();
        }
        // 1000 frames of at most 136 bytes: at most 136,000 bytes, within one or two 256 KiB arrays.
        assertTrue(arrays.size() <= 2, arrays.size() + " arrays for 1000 small frames");
        FrameHeader big = new FrameHeader();
        big.fragLength = EarlyFrames.SPARE_BYTES + 1;
        MemorySegment m = frames.hold(big);
        assertEquals(0, m.address(), "a large frame has an array of its own");
        assertEquals(big.fragLength, m.byteSize());
    }
}
