package io.railcoll.bench.tune;

import io.railcoll.select.TuningFile;
import io.railcoll.sim.*;
import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import java.nio.file.*;
import java.util.*;

class ScratchFitTest {
    @Test
    void fit() throws Exception {
        List<Path> files = new ArrayList<>();
        try (var s = Files.list(Path.of(System.getProperty("dir", "/tmp/tune-rules")))) {
            s.filter(p -> p.getFileName().toString().matches("sweep-probes.*\\.csv")).forEach(files::add);
        }
        SweepResults r = SweepResults.read(files);
        List<Calibration.Probe> probes = Calibration.probes(r, Placement.parse("4x4"), 2, SweepResults.Statistic.MIN);
        CostModel start = new CostModel(Map.of(LinkClass.SHARED_MEMORY, new LinkCost(37100, 0.06761, 1),
                LinkClass.RAIL, new LinkCost(56100, 0.06713, 1)), 0.05, 1024, 0, 2, CpuScope.HOST);
        double[] p0 = Calibration.predict(start, probes);
        double e0 = 0;
        for (int i = 0; i < p0.length; i++) { double e = Math.log(p0[i] / probes.get(i).measuredNs()); e0 += e * e; }
        System.out.println("start rms " + Math.sqrt(e0 / p0.length));
        Calibration.Result res = Calibration.fit(start, probes);
        System.out.println("rms " + res.rmsLogError() + " " + res.model().links());
        for (int i = 0; i < probes.size(); i++) {
            var p = probes.get(i);
            System.out.printf("%-30s %8d meas %10.1f us pred %10.1f %+5.0f%%%n", p.algorithmId(), p.shape().blockBytes(),
                p.measuredNs() / 1e3, res.predictedNs()[i] / 1e3, 100 * (res.predictedNs()[i] / p.measuredNs() - 1));
        }
    }
}
