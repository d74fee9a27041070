package io.railcoll.sim;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The simulator prices a Reduce step as a copy plus gamma per byte (CostModel.DEFAULT_REDUCE_NS_PER_BYTE unless set). */
class ReduceCostTest {
    private static final long B = 1000;
    private static final Shape SHAPE = new Shape(Collective.ALLGATHER, Placement.uniform(1, 1), 1, B, 0);

    private static Algorithm local(boolean reduce) {
        return new Algorithm() {
            @Override
            public String id() {
                return reduce ? "test.reduce" : "test.copy";
            }

            @Override
            public Collective collective() {
                return Collective.ALLGATHER;
            }

            @Override
            public RankProgram program(Shape shape, int rank) {
                long b = shape.blockBytes();
                Op last = reduce ? new Op.Reduce(Buffer.TEMP, 0, Buffer.RECV, 0, b) : new Op.Copy(Buffer.TEMP, 0, Buffer.RECV, 0, b);
                return new RankProgram(rank, List.of(new Op.Copy(Buffer.SEND, 0, Buffer.TEMP, 0, b), last), b);
            }

            @Override
            public String summary() {
                return "test program";
            }
        };
    }

    @Test
    void aReduceCostsACopyPlusGamma() {
        CostModel model = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(0, 1, 0),
                LinkClass.RAIL, new LinkCost(100, 1, 0)), 1.0, Long.MAX_VALUE, 0, 0, CpuScope.NODE);
        assertEquals(2 * B, Simulator.predict(local(false), SHAPE, model).timeNs());
        assertEquals(2.2 * B, Simulator.predict(local(true), SHAPE, model).timeNs(), 1e-6, "default gamma 0.2 ns/byte");
        assertEquals(CostModel.DEFAULT_REDUCE_NS_PER_BYTE, model.reduceNsPerByte());
        CostModel fitted = model.withReduceNsPerByte(0.25);
        assertEquals(2.25 * B, Simulator.predict(local(true), SHAPE, fitted).timeNs(), 1e-6);
        assertEquals(0.25, fitted.withCopyNsPerByte(2).reduceNsPerByte(), "other changes keep gamma");
        assertThrows(IllegalArgumentException.class, () -> model.withReduceNsPerByte(-1));
    }
}
