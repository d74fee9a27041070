package io.railcoll.algorithm;

import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Op;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The builder merges a Reduce that continues the previous one, as it does copies, and never across kinds. */
class ProgramBuilderReduceTest {

    @Test
    void contiguousReductionsMergeAndOthersDoNot() {
        ProgramBuilder b = new ProgramBuilder(0);
        b.reduce(Buffer.TEMP, 0, Buffer.RECV, 100, 8)
                .reduce(Buffer.TEMP, 8, Buffer.RECV, 108, 8)      // continues: merged
                .reduce(Buffer.TEMP, 24, Buffer.RECV, 116, 8)     // source not contiguous
                .reduce(Buffer.SEND, 32, Buffer.RECV, 124, 0)     // empty: vanishes
                .copy(Buffer.TEMP, 32, Buffer.RECV, 124, 8)       // a copy never extends a reduction
                .reduce(Buffer.TEMP, 40, Buffer.RECV, 132, 8);
        List<Op> ops = b.build().ops();
        assertEquals(List.of(new Op.Reduce(Buffer.TEMP, 0, Buffer.RECV, 100, 16),
                new Op.Reduce(Buffer.TEMP, 24, Buffer.RECV, 116, 8),
                new Op.Copy(Buffer.TEMP, 32, Buffer.RECV, 124, 8),
                new Op.Reduce(Buffer.TEMP, 40, Buffer.RECV, 132, 8)), ops);
    }
}
