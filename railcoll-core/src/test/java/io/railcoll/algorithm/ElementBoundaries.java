package io.railcoll.algorithm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.Shape;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** For the reduction tests: a schedule may cut a vector only between elements. */
public final class ElementBoundaries {
    private ElementBoundaries() {
    }

    /** Every range {@code a}'s programs for {@code shape} move or combine starts and ends between elements. */
    public static void assertWholeElements(Algorithm a, Shape shape) {
        int e = shape.elementBytes();
        for (int r = 0; r < shape.size(); r++) {
            for (Op op : a.program(shape, r).ops()) {
                long[] ranges = switch (op) {
                    case Op.Put put -> new long[] {put.srcOffset(), put.length()};
                    case Op.Recv recv -> new long[] {recv.dstOffset(), recv.length()};
                    case Op.Copy copy -> new long[] {copy.srcOffset(), copy.dstOffset(), copy.length()};
                    case Op.Reduce reduce -> new long[] {reduce.srcOffset(), reduce.dstOffset(), reduce.length()};
                    case Op.NodeWrite w -> new long[] {w.srcOffset(), w.nodeOffset(), w.length()};
                    case Op.NodeRead w -> new long[] {w.nodeOffset(), w.dstOffset(), w.length()};
                    case Op.Publish f -> new long[0];
                    case Op.AwaitFlag f -> new long[0];
                    case Op.Multicast m -> new long[] {m.offset(), m.length()};
                    case Op.PeerRead x -> new long[] {x.srcOffset(), x.dstOffset(), x.length()};
                    case Op.PeerWrite x -> new long[] {x.srcOffset(), x.dstOffset(), x.length()};
                };
                for (long v : ranges) {
                    assertEquals(0, v % e, () -> a.id() + " splits an element: " + op);
                }
            }
        }
    }
}
