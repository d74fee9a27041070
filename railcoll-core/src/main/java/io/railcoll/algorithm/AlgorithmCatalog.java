package io.railcoll.algorithm;

import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Buffer;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Op;
import io.railcoll.schedule.RankProgram;
import io.railcoll.schedule.Shape;

import java.util.ArrayList;
import java.util.List;

/** TEMPORARY bring-up catalog; replaced by the real one from the schedules branch. */
public final class AlgorithmCatalog {
    private AlgorithmCatalog() {
    }

    private static final Algorithm DIRECT_ALLGATHER = new Algorithm() {
        public String id() { return "allgather.direct"; }
        public Collective collective() { return Collective.ALLGATHER; }
        public String summary() { return "bring-up"; }
        public RankProgram program(Shape s, int rank) {
            long b = s.blockBytes();
            int n = s.size();
            List<Op> ops = new ArrayList<>();
            ops.add(new Op.Copy(Buffer.SEND, 0, Buffer.RECV, rank * b, b));
            for (int i = 1; i < n; i++) ops.add(new Op.Put((rank + i) % n, Buffer.SEND, 0, b, 0));
            for (int i = 1; i < n; i++) { int p = (rank - i + n) % n; ops.add(new Op.Recv(p, 0, Buffer.RECV, p * b, b)); }
            return new RankProgram(rank, ops, 0);
        }
    };
    private static final Algorithm DIRECT_BARRIER = new Algorithm() {
        public String id() { return "barrier.dissemination"; }
        public Collective collective() { return Collective.BARRIER; }
        public String summary() { return "bring-up"; }
        public RankProgram program(Shape s, int rank) {
            int n = s.size();
            List<Op> ops = new ArrayList<>();
            for (int d = 1, t = 0; d < n; d *= 2, t++) {
                ops.add(new Op.Put((rank + d) % n, Buffer.SEND, 0, 0, t));
                ops.add(new Op.Recv((rank - d + n) % n, t, Buffer.RECV, 0, 0));
            }
            return new RankProgram(rank, ops, 0);
        }
    };

    private static final List<Algorithm> ALL = List.of(DIRECT_ALLGATHER, DIRECT_BARRIER);

    public static List<Algorithm> all() { return ALL; }

    public static Algorithm byId(String id) {
        for (Algorithm a : ALL) if (a.id().equals(id)) return a;
        throw new IllegalArgumentException("unknown algorithm " + id);
    }

    public static List<Algorithm> forCollective(Collective c) {
        return ALL.stream().filter(a -> a.collective() == c).toList();
    }

    public static Algorithm require(String id, Shape shape) {
        Algorithm a = byId(id);
        a.unsupportedReason(shape).ifPresent(r -> { throw new IllegalArgumentException(id + ": " + r); });
        return a;
    }
}
