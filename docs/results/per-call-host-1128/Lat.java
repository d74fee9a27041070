import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import java.lang.foreign.*;

/** OSU-style: barrier, then one timed call; per rank mean over N calls, 7 rounds; rank 0 prints the slowest rank's mean per round. */
public class Lat {
    public static void main(String[] a) throws Exception {
        String what = a[0];
        int n = Integer.parseInt(a[1]);
        try (Communicator c = Railcoll.init()) {
            MemorySegment send = Arena.global().allocate(8).asSlice(0, 1);
            MemorySegment recv = Arena.global().allocate(8L * c.size()).asSlice(0, c.size());
            MemorySegment one = recv.asSlice(0, 1);
            MemorySegment times = Arena.global().allocate(8);
            MemorySegment all = Arena.global().allocate(8L * c.size());
            Runnable call = switch (what) {
                case "gather" -> () -> c.gather(send, recv, 0);
                case "allgather" -> () -> c.allgather(send, recv);
                case "broadcast" -> () -> c.broadcast(one, 0);
                case "barrier" -> c::barrier;
                default -> throw new IllegalArgumentException(what);
            };
            StringBuilder sb = new StringBuilder();
            for (int round = 0; round < 9; round++) {
                long total = 0;
                for (int i = 0; i < n; i++) {
                    c.barrier();
                    long t0 = System.nanoTime();
                    call.run();
                    total += System.nanoTime() - t0;
                }
                times.set(ValueLayout.JAVA_LONG, 0, total / n);
                c.allgather(times, all);
                long max = 0;
                StringBuilder per = new StringBuilder();
                for (int r = 0; r < c.size(); r++) { long v = all.getAtIndex(ValueLayout.JAVA_LONG, r); max = Math.max(max, v); per.append(v).append(r + 1 < c.size() ? "/" : ""); }
                if (round >= 2) sb.append(max).append(" (").append(per).append(") ");
            }
            if (c.rank() == 0) System.out.println("LAT " + what + " " + sb);
        }
    }
}
