import io.railcoll.reduce.Combiner;
import io.railcoll.reduce.Combiners;
import io.railcoll.reduce.ElementType;
import io.railcoll.reduce.PredefinedOperator;
import java.lang.foreign.*;
import java.util.Locale;

/** Throw-away probe (not committed): a fresh JVM's first combines, with and without the module (JIT warm-up). */
public class ColdStart {
    public static void main(String[] args) {
        long bytes = Long.parseLong(args[0]);
        ElementType type = ElementType.valueOf(args.length > 1 ? args[1] : "DOUBLE");
        long count = bytes / type.sizeBytes();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(bytes, 64), io = arena.allocate(bytes, 64);
            long t0 = System.nanoTime();
            Combiner c = Combiners.of(type, PredefinedOperator.SUM);
            long tInit = System.nanoTime() - t0;
            StringBuilder sb = new StringBuilder();
            long start = System.nanoTime();
            int[] marks = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
            int m = 0;
            long last = 0;
            for (int i = 1; i <= 10000; i++) {
                long a = System.nanoTime();
                c.combine(in, 0, io, 0, count);
                last = System.nanoTime() - a;
                if (i == marks[m]) {
                    sb.append(String.format(Locale.ROOT, " %d:%.2fms/%.1fus", i, (System.nanoTime() - start) / 1e6, last / 1e3));
                    m++;
                }
            }
            System.out.printf(Locale.ROOT, "COLD vector_api=%b bytes=%d type=%s init_ms=%.1f calls(cumulative ms/last call us):%s%n",
                    Combiners.vectorApi(), bytes, type, tInit / 1e6, sb);
        }
    }
}
