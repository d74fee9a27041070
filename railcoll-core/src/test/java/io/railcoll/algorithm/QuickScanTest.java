package io.railcoll.algorithm;

import io.railcoll.schedule.*;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;
import java.util.*;

class QuickScanTest {
    @Test
    void scan() {
        int failures = 0;
        for (Algorithm a : AlgorithmCatalog.standard().all()) {
            System.out.println(ScheduleChecker.check(a, new Shape(a.collective(), Placement.ofCounts(3,4,2), 2, 5, 4)).describe());
            for (int n = 1; n <= 30; n++) {
                for (int k = 1; k <= 4; k++) {
                    for (long b : new long[] {0, 1, 3}) {
                        for (int root : new int[] {0, n - 1, n / 2}) {
                            Shape s = new Shape(a.collective(), Placement.uniform(n, 1), k, b, root);
                            ScheduleChecker.Report r = ScheduleChecker.check(a, s);
                            if (!r.ok() && failures++ < 15) {
                                System.out.println(r.describe());
                            }
                        }
                    }
                }
            }
        }
        System.out.println("failures: " + failures);
        Shape s = new Shape(Collective.ALLGATHER, Placement.uniform(4, 1), 1, 8, 0);
        Algorithm d = AlgorithmCatalog.standard().byId("allgather.direct");
        System.out.println(ScheduleChecker.check("broken", s, r -> {
            RankProgram p = d.program(s, r);
            List<Op> ops = new ArrayList<>(p.ops());
            if (r == 2) ops.add(1, new Op.Copy(Buffer.SEND, 0, Buffer.RECV, 0, 8));
            if (r == 3) ops.remove(ops.size() - 1);
            return new RankProgram(r, ops, 0);
        }, null).describe());
        Algorithm ring = AlgorithmCatalog.standard().byId("allgather.ring");
        System.out.println(ScheduleChecker.check("deadlock", s, r -> {
            RankProgram p = ring.program(s, r);
            List<Op> ops = new ArrayList<>(p.ops());
            if (r == 1) { Op put = ops.remove(1); ops.add(put); }
            return new RankProgram(r, ops, 0);
        }, null).describe());
    }
}
