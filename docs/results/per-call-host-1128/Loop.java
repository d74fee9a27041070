import io.railcoll.Communicator;
import io.railcoll.Railcoll;
import java.lang.foreign.*;

/** A loop of one small collective: warm-up, then N timed calls; prints ns per call on rank 0. */
public class Loop {
    public static void main(String[] a) throws Exception {
        String what = a[0];
        long n = Long.parseLong(a[1]);
        try (Communicator c = Railcoll.init()) {
            MemorySegment send = Arena.global().allocate(8).asSlice(0, 1);
            MemorySegment recv = Arena.global().allocate(8L * c.size()).asSlice(0, c.size());
            MemorySegment one = recv.asSlice(0, 1);
            Runnable call = switch (what) {
                case "gather" -> () -> c.gather(send, recv, 0);
                case "allgather" -> () -> c.allgather(send, recv);
                case "broadcast" -> () -> c.broadcast(one, 0);
                case "barrier" -> c::barrier;
                default -> throw new IllegalArgumentException(what);
            };
            for (int i = 0; i < 2_000_000; i++) call.run();
            c.barrier();
            long t = System.nanoTime();
            for (long i = 0; i < n; i++) call.run();
            c.barrier();
            long el = System.nanoTime() - t;
            if (c.rank() == 0) System.out.printf("LOOP %s %d calls %.1f ns/call%n", what, n, el / (double) n);
        }
    }
}
