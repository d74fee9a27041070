package io.railcoll.transport.shm;

import io.railcoll.memory.NativeCalls;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Single-copy transfer between processes of one node: Linux cross-memory attach
 * ({@code process_vm_readv} / {@code process_vm_writev}) moves bytes straight between another
 * process's virtual addresses and a local native segment, one copy done by the kernel instead of
 * the two of a shared ring (paper 000 section 4.2 calls this "kernel-based copying" and skips it
 * for its system-call cost; above some tens of KiB the saved copy wins).
 *
 * <p>Use: the owner of a large native source segment publishes its pid, the segment's address and
 * the length (over a {@link ShmChannel}); the receiver calls {@link #read} into its destination and
 * then signals completion, after which the owner may reuse its buffer. The owner's memory must stay
 * valid until that signal.
 *
 * <p>The kernel allows this only if the caller may ptrace the target: same uid and, under Yama
 * {@code ptrace_scope} 1, only an ancestor or a process the target allowed, with {@code ptrace_scope}
 * 2 only {@code CAP_SYS_PTRACE}, with 3 never; containers may also filter the calls out with
 * seccomp. Refusals raise {@link ShmException.Reason#CMA_DENIED} with {@link #ptraceDiagnosis()}, so the
 * caller falls back to the ring. Probe once per peer with {@link #probe}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Cma {
    private static final MemoryLayout IOVEC = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("iov_base"), ValueLayout.JAVA_LONG.withName("iov_len"));
    // ssize_t process_vm_readv(pid_t, const struct iovec *local, unsigned long liovcnt,
    //                          const struct iovec *remote, unsigned long riovcnt, unsigned long flags)
    private static final FunctionDescriptor SIGNATURE = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    private static final MethodHandle READV = NativeCalls.libc("process_vm_readv", SIGNATURE);
    private static final MethodHandle WRITEV = NativeCalls.libc("process_vm_writev", SIGNATURE);

    private Cma() {
    }

    /**
     * Reads {@code length} bytes at {@code remoteAddress} in process {@code pid} into
     * {@code dst[dstOffset, dstOffset+length)}; partial transfers are continued until done.
     *
     * @param dst a native segment
     * @throws ShmException {@code CMA_DENIED} if the kernel refuses (EPERM/ENOSYS),
     *         {@code PEER_LOST} if the process is gone (ESRCH), {@code CMA_FAILED} otherwise
     *         (for example EFAULT: the remote range is not mapped)
     */
    public static void read(long pid, long remoteAddress, MemorySegment dst, long dstOffset, long length) {
        transfer(READV, "process_vm_readv", pid, remoteAddress, dst, dstOffset, length);
    }

    /** Writes {@code src[srcOffset, srcOffset+length)} to {@code remoteAddress} in process {@code pid}; as {@link #read}. */
    public static void write(long pid, long remoteAddress, MemorySegment src, long srcOffset, long length) {
        transfer(WRITEV, "process_vm_writev", pid, remoteAddress, src, srcOffset, length);
    }

    /**
     * Whether this process may read process {@code pid}'s memory: reads the 8 bytes at
     * {@code remoteAddress} and compares them with {@code expected} (a value the peer published
     * there, such as the region magic at the start of its mapping).
     *
     * @return true if the read succeeded and matched; false if refused or the value differs
     * @throws ShmException {@code PEER_LOST} if the process is gone
     */
    public static boolean probe(long pid, long remoteAddress, long expected) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(ValueLayout.JAVA_LONG);
            read(pid, remoteAddress, word, 0, 8);
            return word.get(ValueLayout.JAVA_LONG, 0) == expected;
        } catch (ShmException e) {
            if (e.reason() == ShmException.Reason.PEER_LOST) {
                throw e;
            }
            return false;
        }
    }

    /** What limits cross-memory attach here, for messages: the Yama ptrace scope if present. */
    public static String ptraceDiagnosis() {
        Path scope = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        if (!Files.isReadable(scope)) {
            return "no Yama LSM (no /proc/sys/kernel/yama/ptrace_scope): the classic rule applies, same uid "
                    + "or CAP_SYS_PTRACE; a container seccomp profile may still forbid process_vm_readv";
        }
        try {
            String value = Files.readString(scope).strip();
            String meaning = switch (value) {
                case "0" -> "classic: any process of the same uid";
                case "1" -> "restricted: only ancestors, or processes the target allowed with prctl(PR_SET_PTRACER)";
                case "2" -> "admin-only: needs CAP_SYS_PTRACE";
                case "3" -> "no attach at all";
                default -> "unknown value";
            };
            return "kernel.yama.ptrace_scope=" + value + " (" + meaning + ")";
        } catch (IOException e) {
            return "could not read " + scope + ": " + e.getMessage();
        }
    }

    private static void transfer(MethodHandle call, String name, long pid, long remoteAddress, MemorySegment local,
                                 long localOffset, long length) {
        Objects.requireNonNull(local, "local segment");
        Objects.checkFromIndexSize(localOffset, length, local.byteSize());
        if (!local.isNative()) {
            throw new IllegalArgumentException(name + " needs a native local segment");
        }
        if (pid <= 0 || pid > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("bad pid " + pid);
        }
        if (length == 0) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            new Transfer(arena, call, name).run(pid, remoteAddress, local, localOffset, length);
        }
    }

    /**
     * Cross-memory attach for one thread's repeated transfers: its iovecs and errno captures are allocated once, so
     * {@link #read} and {@link #write} allocate nothing (the engine's hot path). Not thread-safe: one per owner thread.
     */
    public static final class Copier {
        private final Transfer readv;
        private final Transfer writev;

        public Copier(Arena arena) {
            readv = new Transfer(arena, READV, "process_vm_readv");
            writev = new Transfer(arena, WRITEV, "process_vm_writev");
        }

        /**
         * As {@link Cma#read}: {@code length} bytes at {@code remoteAddress} of {@code pid} into the native
         * {@code dst[dstOffset, dstOffset+length)}, continuing partial transfers.
         */
        public void read(long pid, long remoteAddress, MemorySegment dst, long dstOffset, long length) {
            run(readv, pid, remoteAddress, dst, dstOffset, length);
        }

        /**
         * As {@link Cma#write}: the native {@code src[srcOffset, srcOffset+length)} to {@code remoteAddress} of
         * {@code pid}, continuing partial transfers.
         */
        public void write(long pid, long remoteAddress, MemorySegment src, long srcOffset, long length) {
            run(writev, pid, remoteAddress, src, srcOffset, length);
        }

        private static void run(Transfer transfer, long pid, long remoteAddress, MemorySegment local, long localOffset,
                                long length) {
            if (!local.isNative()) {
                throw new IllegalArgumentException(transfer.name + " needs a native local segment");
            }
            Objects.checkFromIndexSize(localOffset, length, local.byteSize());
            transfer.run(pid, remoteAddress, local, localOffset, length);
        }
    }

    /** One direction of cross-memory attach with its iovecs and errno capture allocated once; the retry loop. */
    private static final class Transfer {
        private final MethodHandle call;
        private final String name;
        private final MemorySegment localIov;
        private final MemorySegment remoteIov;
        private final MemorySegment capture;

        Transfer(Arena arena, MethodHandle call, String name) {
            this.call = call;
            this.name = name;
            localIov = arena.allocate(IOVEC);
            remoteIov = arena.allocate(IOVEC);
            capture = NativeCalls.captureState(arena.allocate(
                    NativeCalls.ARGUMENT_BYTES + java.lang.foreign.Linker.Option.captureStateLayout().byteSize(), 16));
        }

        /** Moves {@code length} bytes, continuing partial transfers and retrying on EINTR. */
        void run(long pid, long remoteAddress, MemorySegment local, long localOffset, long length) {
            long done = 0;
            while (done < length) {
                localIov.set(ValueLayout.JAVA_LONG, 0, local.address() + localOffset + done);
                localIov.set(ValueLayout.JAVA_LONG, 8, length - done);
                remoteIov.set(ValueLayout.JAVA_LONG, 0, remoteAddress + done);
                remoteIov.set(ValueLayout.JAVA_LONG, 8, length - done);
                long n;
                try {
                    n = (long) call.invokeExact(capture, (int) pid, localIov, 1L, remoteIov, 1L, 0L);
                } catch (Throwable t) {
                    throw new IllegalStateException(name + " could not be invoked", t);
                }
                if (n > 0) {
                    done += n;
                } else if (n == 0) {
                    throw new ShmException(ShmException.Reason.CMA_FAILED, name + " of pid " + pid + " at 0x"
                            + Long.toHexString(remoteAddress + done) + " made no progress after " + done + " of "
                            + length + " bytes");
                } else {
                    int errno = NativeCalls.errno(capture);
                    if (errno != NativeCalls.EINTR) {
                        throw failure(name, errno, pid, remoteAddress + done, done, length);
                    }
                }
            }
        }
    }

    /** The exception for {@code errno} from a transfer; package-private so the mapping is testable. */
    static ShmException failure(String name, int errno, long pid, long remoteAddress, long done, long length) {
        String what = name + " of " + length + " bytes from pid " + pid + " at 0x" + Long.toHexString(remoteAddress)
                + " failed after " + done + " bytes: " + NativeCalls.errnoName(errno);
        return switch (errno) {
            case NativeCalls.EPERM, NativeCalls.ENOSYS -> new ShmException(ShmException.Reason.CMA_DENIED,
                    what + "; the kernel refuses cross-memory attach to that process (" + ptraceDiagnosis()
                            + "); fall back to the shared-memory ring");
            case NativeCalls.ESRCH -> new ShmException(ShmException.Reason.PEER_LOST,
                    what + "; no such process: the peer has exited");
            default -> new ShmException(ShmException.Reason.CMA_FAILED, what
                    + (errno == NativeCalls.EFAULT ? "; the address range is not mapped in one of the processes" : ""));
        };
    }
}
