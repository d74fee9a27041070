package io.railcoll.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Helpers for in-process region tests: scratch directories, hand-made region files, dead pids. */
final class RegionFixtures {
    private RegionFixtures() {
    }

    /** A fresh directory on tmpfs, so mappings behave as in production. */
    static Path scratchDirectory() throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.createTempDirectory(Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir")),
                "rctest-");
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** A pid that belonged to a process that has exited. */
    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    /** Writes a complete, ready region file at {@code path} as if {@code header}'s creator had made it. */
    static void writeRegionFile(Path path, RegionHeader header) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, header.totalBytes(), arena);
            header.write(segment);
            RegionHeader.publishReady(segment);
        }
    }

    /** Opens all local ranks of one node concurrently in this process, as separate "processes" would. */
    static List<NodeRegion> openAll(String jobId, int nodeId, int localSize, ShmConfig config) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(localSize);
        try {
            List<Future<NodeRegion>> futures = new ArrayList<>();
            for (int r = 0; r < localSize; r++) {
                int rank = r;
                futures.add(pool.submit(() -> NodeRegion.open(jobId, nodeId, rank, localSize, config)));
            }
            List<NodeRegion> regions = new ArrayList<>();
            for (Future<NodeRegion> f : futures) {
                regions.add(f.get(60, TimeUnit.SECONDS));
            }
            return regions;
        } finally {
            pool.shutdown();
        }
    }
}
