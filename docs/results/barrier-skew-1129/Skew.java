import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import java.lang.foreign.*;

/**
 * How much of an OSU-style figure (barrier, then one timed call; each rank's mean; the slowest rank's) is the call, and
 * how much is the order in which the barrier lets the ranks out. Per round, on every rank:
 *   osu   = mean over N of (time of one call started right after a barrier), as the bench reports it (max over ranks);
 *   pair  = mean over N of (barrier + call), timed as one loop;
 *   bar   = mean over N of (barrier + barrier) ... no: of one barrier alone, timed as one loop;
 *   cost  = pair - bar: what the call adds to a loop of barriers, whichever rank the barrier lets out first.
 * Rank 0 prints, per round, osu (max over ranks) and cost (max over ranks), in ns.
 */
public class Skew {
    public static void main(String[] a) throws Exception {
        String what = a[0];
        int n = Integer.parseInt(a[1]);
        int rounds = Integer.parseInt(a[2]);
        try (Communicator c = Railcoll.init()) {
            MemorySegment send = Arena.global().allocate(8).asSlice(0, 1);
            MemorySegment recv = Arena.global().allocate(8L * c.size()).asSlice(0, c.size());
            MemorySegment one = recv.asSlice(0, 1);
            MemorySegment mine = Arena.global().allocate(24);
            MemorySegment all = Arena.global().allocate(24L * c.size());
            Runnable call = switch (what) {
                case "gather" -> () -> c.gather(send, recv, 0);
                case "allgather" -> () -> c.allgather(send, recv);
                case "broadcast" -> () -> c.broadcast(one, 0);
                case "barrier" -> c::barrier;
                default -> throw new IllegalArgumentException(what);
            };
            StringBuilder sb = new StringBuilder();
            for (int round = 0; round < rounds + 2; round++) {
                long osu = 0;
                for (int i = 0; i < n; i++) {
                    c.barrier();
                    long t0 = System.nanoTime();
                    call.run();
                    osu += System.nanoTime() - t0;
                }
                c.barrier();
                long t = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    c.barrier();
                    call.run();
                }
                long pair = System.nanoTime() - t;
                c.barrier();
                t = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    c.barrier();
                }
                long bar = System.nanoTime() - t;
                mine.set(ValueLayout.JAVA_LONG, 0, osu / n);
                mine.set(ValueLayout.JAVA_LONG, 8, pair / n);
                mine.set(ValueLayout.JAVA_LONG, 16, bar / n);
                c.allgather(mine, all);
                long maxOsu = 0, maxCost = 0, maxBar = 0;
                for (int r = 0; r < c.size(); r++) {
                    maxOsu = Math.max(maxOsu, all.get(ValueLayout.JAVA_LONG, 24L * r));
                    maxCost = Math.max(maxCost, all.get(ValueLayout.JAVA_LONG, 24L * r + 8) - all.get(ValueLayout.JAVA_LONG, 24L * r + 16));
                    maxBar = Math.max(maxBar, all.get(ValueLayout.JAVA_LONG, 24L * r + 16));
                }
                if (round >= 2) {
                    sb.append(" osu=").append(maxOsu).append(" cost=").append(maxCost).append(" bar=").append(maxBar);
                }
            }
            if (c.rank() == 0) {
                System.out.println("SKEW " + what + sb);
            }
        }
    }
}
