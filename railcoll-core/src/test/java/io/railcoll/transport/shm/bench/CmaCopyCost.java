package io.railcoll.transport.shm.bench;

import io.railcoll.transport.shm.Cma;
import java.lang.foreign.*;
/**
 * What a put costs in copies, for the single-copy threshold (docs/decisions/0009): process_vm_readv with a reused
 * {@link Cma.Copier} against one memcpy of the same size, both within this process (same caches as between two
 * processes of a node). The ring path costs two memcpys, the single-copy path one process_vm_readv plus a
 * pull count. Best of 7 rounds. Not a test: prints figures.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp railcoll-core/target/classes:railcoll-core/target/test-classes \
 *      io.railcoll.transport.shm.bench.CmaCopyCost
 * </pre>
 */
public final class CmaCopyCost {
    public static void main(String[] a) {
        long pid = ProcessHandle.current().pid();
        try (Arena arena = Arena.ofShared()) {
            for (long size : new long[] {16384, 32768, 65536, 131072, 262144, 1048576, 4194304}) {
                MemorySegment src = arena.allocate(size, 4096); src.fill((byte)1);
                MemorySegment dst = arena.allocate(size, 4096); dst.fill((byte)2);
                Cma.Copier r = new Cma.Copier(arena);
                int n = (int) Math.max(20, (256L << 20) / size);
                double bestC = 1e18, bestM = 1e18;
                for (int rep = 0; rep < 7; rep++) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < n; i++) r.read(pid, src.address(), dst, 0, size);
                    long t1 = System.nanoTime();
                    for (int i = 0; i < n; i++) MemorySegment.copy(src, 0, dst, 0, size);
                    long t2 = System.nanoTime();
                    bestC = Math.min(bestC, (t1 - t0) / (double) n); bestM = Math.min(bestM, (t2 - t1) / (double) n);
                }
                System.out.printf("%8d B: cma %.2f us (%.1f GB/s)  memcpy %.2f us (%.1f GB/s)%n", size, bestC/1e3, size/bestC, bestM/1e3, size/bestM);
            }
        }
    }
}
