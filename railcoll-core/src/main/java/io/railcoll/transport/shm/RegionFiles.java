package io.railcoll.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The region file on disk (tmpfs): its name, exclusive creation with mode 0600, waiting for it
 * and mapping it, recognising and removing stale ones. Stateless; every method is safe to call
 * from any thread, and the creation protocol is safe between processes because creation is
 * {@code O_EXCL} and readiness is a release-written header word.
 */
final class RegionFiles {
    static final String PREFIX = "railcoll-";
    private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9_.-]{1," + RegionHeader.MAX_JOB_ID_BYTES + "}");
    /** A file without a readable header is left alone this long by {@link #removeStale}: its creator may be starting. */
    static final long UNREADABLE_GRACE_MILLIS = 10_000;
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    private static final int CREATE_ATTEMPTS = 4;

    /** A mapped region: its own arena (closing it unmaps) and the segment. */
    record Mapping(Arena arena, MemorySegment segment) {
    }

    enum State {
        /** No file with that name. */
        MISSING,
        /** Too short, not a railcoll region, or no creator recorded. */
        UNREADABLE,
        /** A live creator has not published the ready word yet. */
        INITIALISING,
        /** Ready, and its creator is alive. */
        LIVE,
        /** Its creator has exited. */
        STALE
    }

    record Inspection(State state, RegionHeader header, String detail) {
    }

    private RegionFiles() {
    }

    static String validateJobId(String jobId) {
        if (jobId == null || !JOB_ID.matcher(jobId).matches() || jobId.startsWith(".")) {
            throw new IllegalArgumentException("job id must be 1-" + RegionHeader.MAX_JOB_ID_BYTES
                    + " characters of [A-Za-z0-9_.-], not starting with '.', got '" + jobId + "'");
        }
        return jobId;
    }

    /** {@code <directory>/railcoll-<jobId>-n<nodeId>}. */
    static Path path(Path directory, String jobId, int nodeId) {
        validateJobId(jobId);
        if (nodeId < 0) {
            throw new IllegalArgumentException("node id must be >= 0, got " + nodeId);
        }
        return directory.resolve(PREFIX + jobId + "-n" + nodeId);
    }

    /** What is at {@code path}: used to decide whether a file is stale. Never throws for file content. */
    static Inspection inspect(Path path) {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
             Arena arena = Arena.ofConfined()) {
            long size = channel.size();
            if (size < RegionLayout.HEADER_BYTES) {
                return new Inspection(State.UNREADABLE, null, "it is " + size + " bytes, shorter than a region header");
            }
            MemorySegment head = channel.map(FileChannel.MapMode.READ_ONLY, 0, RegionLayout.HEADER_BYTES, arena);
            RegionHeader header = RegionHeader.read(head);
            boolean ready = RegionHeader.isReady(head);
            if (header.creatorPid() <= 0) {
                return new Inspection(State.UNREADABLE, header, "it records no creator pid");
            }
            if (!Processes.isAlive(header.creatorPid(), header.creatorStartMillis())) {
                return new Inspection(State.STALE, header, "its creator pid " + header.creatorPid()
                        + " (job '" + header.jobId() + "') has exited");
            }
            if (!ready) {
                return new Inspection(State.INITIALISING, header, "live pid " + header.creatorPid() + " is initialising it");
            }
            if (!header.isRailcollRegion()) {
                return new Inspection(State.UNREADABLE, header, "it is not a railcoll region (bad magic)");
            }
            return new Inspection(State.LIVE, header, "live pid " + header.creatorPid() + " created it for job '"
                    + header.jobId() + "'");
        } catch (NoSuchFileException e) {
            return new Inspection(State.MISSING, null, "no file");
        } catch (IOException e) {
            return new Inspection(State.UNREADABLE, null, "it cannot be read: " + e);
        }
    }

    /**
     * Creates the region file exclusively (mode 0600), sizes and maps it, writes the header and
     * publishes it as ready. A file already there is replaced if stale (creator dead, another job,
     * unreadable), with a note on stderr; if a live process holds it for this job, fails.
     */
    static Mapping create(Path path, RegionHeader header, String who) {
        for (int attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
            try (FileChannel channel = FileChannel.open(path, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), OWNER_ONLY)) {
                return initialise(path, channel, header, who);
            } catch (FileAlreadyExistsException e) {
                replaceIfStale(path, header, who);
            } catch (IOException e) {
                throw new ShmException(ShmException.Reason.REGION, who + ": cannot create " + path + ": " + e, e);
            }
        }
        throw new ShmException(ShmException.Reason.REGION, who + ": " + path + " kept reappearing; gave up after "
                + CREATE_ATTEMPTS + " attempts to create it");
    }

    private static Mapping initialise(Path path, FileChannel channel, RegionHeader header, String who) throws IOException {
        long total = header.totalBytes();
        long usable = Files.getFileStore(path.getParent()).getUsableSpace();
        if (usable < total) {
            Files.deleteIfExists(path);
            throw new ShmException(ShmException.Reason.REGION, who + ": the region needs " + total + " bytes but "
                    + path.getParent() + " has " + usable + " free; lower ringBytes");
        }
        Arena arena = Arena.ofShared();
        try {
            // Mapping beyond the end of a read-write channel grows the file to the mapped size;
            // tmpfs fills it with zeros, which is every slot's initial state.
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, total, arena);
            header.write(segment);
            RegionHeader.publishReady(segment);
            return new Mapping(arena, segment);
        } catch (IOException | RuntimeException e) {
            arena.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    private static void replaceIfStale(Path path, RegionHeader mine, String who) {
        Inspection found = inspect(path);
        switch (found.state()) {
            case MISSING -> {
                // Removed meanwhile: just try again.
            }
            case LIVE -> {
                if (found.header().jobId().equals(mine.jobId()) && found.header().nodeId() == mine.nodeId()) {
                    throw new ShmException(ShmException.Reason.REGION, who + ": " + path + " is in use: " + found.detail()
                            + "; is local rank 0 of this node started twice, or the job id reused by a running job?");
                }
                removeStaleFile(path, found.detail() + ", not job '" + mine.jobId() + "' node " + mine.nodeId());
            }
            case INITIALISING -> throw new ShmException(ShmException.Reason.REGION, who + ": " + path
                    + " is being created by another process: " + found.detail() + "; is local rank 0 started twice?");
            case STALE, UNREADABLE -> removeStaleFile(path, found.detail());
        }
    }

    private static void removeStaleFile(Path path, String why) {
        System.err.println("railcoll: removing stale shared-memory region " + path + ": " + why);
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new ShmException(ShmException.Reason.REGION, "cannot remove stale region " + path + ": " + e, e);
        }
    }

    /**
     * Waits for local rank 0 to create and initialise the region for this job and node, then maps
     * it. Stale files (other job, dead creator) are ignored, not removed: the creator replaces them.
     *
     * @throws ShmException {@code MISMATCH} if the live region's layout differs from this rank's,
     *         {@code TIMED_OUT} if no valid region appears before {@code deadlineNs}
     */
    static Mapping attach(Path path, RegionHeader expected, long startNs, long timeoutNs, String who) {
        String lastSeen = "no file";
        long sleepMillis = 1;
        while (true) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                long size = channel.size();
                if (size < RegionLayout.HEADER_BYTES) {
                    lastSeen = "a file of " + size + " bytes (creator still sizing it)";
                } else {
                    RegionHeader found = null;
                    try (Arena probe = Arena.ofConfined()) {
                        MemorySegment head = channel.map(FileChannel.MapMode.READ_ONLY, 0, RegionLayout.HEADER_BYTES, probe);
                        if (RegionHeader.isReady(head)) {
                            found = RegionHeader.read(head);
                        } else {
                            lastSeen = "a region whose header is not ready yet";
                        }
                    }
                    if (found != null) {
                        String problem = problemWith(found, expected);
                        if (problem == null) {
                            String mismatch = found.mismatchWith(expected);
                            if (mismatch != null) {
                                throw new ShmException(ShmException.Reason.MISMATCH, who + ": " + path + " was created by pid "
                                        + found.creatorPid() + " with another layout: " + mismatch);
                            }
                            if (size != found.totalBytes()) {
                                throw new ShmException(ShmException.Reason.REGION, who + ": " + path + " is " + size
                                        + " bytes but its header says " + found.totalBytes());
                            }
                            return map(channel, found.totalBytes());
                        }
                        lastSeen = problem;
                    }
                }
            } catch (NoSuchFileException e) {
                lastSeen = "no file";
            } catch (IOException e) {
                lastSeen = "a file that cannot be opened: " + e;
            }
            long waited = System.nanoTime() - startNs;
            if (waited >= timeoutNs) {
                throw new ShmException(ShmException.Reason.TIMED_OUT, who + ": timed out after " + PeerWatch.millis(waited)
                        + " ms awaiting local rank 0 to create and initialise " + path + "; last saw " + lastSeen);
            }
            sleep(sleepMillis, who);
            sleepMillis = Math.min(sleepMillis * 2, 10);
        }
    }

    /** Why a ready region is not the one this rank waits for, or null if it is. */
    private static String problemWith(RegionHeader found, RegionHeader expected) {
        if (!found.isRailcollRegion()) {
            return "a file that is not a railcoll region";
        }
        if (!found.jobId().equals(expected.jobId()) || found.nodeId() != expected.nodeId()) {
            return "a stale region of job '" + found.jobId() + "' node " + found.nodeId();
        }
        if (!Processes.isAlive(found.creatorPid(), found.creatorStartMillis())) {
            return "a stale region whose creator pid " + found.creatorPid() + " has exited";
        }
        return null;
    }

    private static Mapping map(FileChannel channel, long total) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            return new Mapping(arena, channel.map(FileChannel.MapMode.READ_WRITE, 0, total, arena));
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Deletes {@code path} if it is still the region created by {@code pid}; true if deleted. */
    static boolean deleteIfCreatedBy(Path path, long pid) {
        Inspection found = inspect(path);
        if (found.header() == null || found.header().creatorPid() != pid) {
            return false;
        }
        try {
            return Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unlink region " + path, e);
        }
    }

    /**
     * Removes region files in {@code directory} whose job id starts with {@code jobIdPrefix} (all
     * railcoll regions if null or empty) and whose creator has exited, plus files without a
     * readable header older than {@link #UNREADABLE_GRACE_MILLIS}.
     *
     * @return the removed paths
     */
    static List<Path> removeStale(Path directory, String jobIdPrefix) {
        String namePrefix = PREFIX + (jobIdPrefix == null ? "" : jobIdPrefix);
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory,
                p -> p.getFileName().toString().startsWith(namePrefix) && Files.isRegularFile(p))) {
            for (Path file : files) {
                Inspection found = inspect(file);
                boolean stale = found.state() == State.STALE
                        || found.state() == State.UNREADABLE && olderThan(file, UNREADABLE_GRACE_MILLIS);
                if (stale && Files.deleteIfExists(file)) {
                    removed.add(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scan " + directory + " for stale regions", e);
        }
        return removed;
    }

    private static boolean olderThan(Path file, long millis) {
        try {
            return System.currentTimeMillis() - Files.getLastModifiedTime(file).toMillis() > millis;
        } catch (IOException e) {
            return false;
        }
    }

    static void sleep(long millis, String who) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShmException(ShmException.Reason.REGION, who + ": interrupted while setting up the region", e);
        }
    }
}
