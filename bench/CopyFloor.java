import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;

/**
 * The node copying an all-gather cannot avoid, timed alone: every one of R ranks of a node must end with the node's
 * R*N*B bytes in its own receive buffer, so R buffers of R*N*B bytes are written from one shared source each call.
 * One thread copies from one source into R separate, previously touched buffers (so each call finds them out of
 * cache, as ranks' receive buffers are), in pieces of 256 KiB as allgather.smp-direct-shm's node-mates copy them out
 * of the node buffer where the result exceeds it (decision 0156), and the fastest of the rounds is printed: processor time per call that no design
 * of the node step gets under on this machine (Java's copy at its best; the kernel's process_vm_readv is slower
 * here, decision 0014). The bench/cpu-ceiling.sh script puts it beside the network stacks' share.
 *
 * java bench/CopyFloor.java RANKS_PER_NODE NODE_RESULT_BYTES [rounds]
 * prints: copy-floor,<ranks>,<bytes>,<fastest_ms>,<median_ms>,<GB/s at the fastest>
 */
public final class CopyFloor {
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: java bench/CopyFloor.java RANKS_PER_NODE NODE_RESULT_BYTES [rounds]");
            System.exit(2);
        }
        int ranks = Integer.parseInt(args[0]);
        long bytes = Long.parseLong(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        long piece = Math.min(bytes, 256 << 10);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(bytes, 64);
            source.fill((byte) 7);
            MemorySegment[] receive = new MemorySegment[ranks];
            for (int r = 0; r < ranks; r++) {
                receive[r] = arena.allocate(bytes, 64);
                receive[r].fill((byte) r);
            }
            double[] ms = new double[rounds];
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                for (long off = 0; off < bytes; off += piece) {
                    long len = Math.min(piece, bytes - off);
                    for (MemorySegment r : receive) {
                        MemorySegment.copy(source, off, r, off, len);
                    }
                }
                ms[round] = (System.nanoTime() - t0) / 1e6;
            }
            double[] sorted = ms.clone();
            java.util.Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "copy-floor,%d,%d,%.3f,%.3f,%.2f%n", ranks, bytes, sorted[0],
                    sorted[rounds / 2], ranks * (double) bytes / (sorted[0] * 1e6));
        }
    }
}
