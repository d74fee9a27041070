package io.railcoll.memory;

import io.railcoll.trace.CallCounters;
import io.railcoll.trace.CallCounters.Event;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Linux futex wait and wake on a 32-bit word of a shared mapping, through libc's
 * {@code syscall(SYS_futex, ...)}.
 *
 * <p>The operations are the <em>shared</em> (non-private) ones: the kernel keys the wait queue
 * by the mapped file page, so a wake in one process reaches a waiter in another process that
 * mapped the same file, and also a waiter in the same process.
 *
 * <p>All {@code syscall} arguments are passed as {@code long}: glibc's {@code syscall} reads every
 * variadic argument as a {@code long} and the kernel truncates to the declared types, so passing
 * 32-bit values would leave the upper register halves undefined.
 *
 * <p>Stateless and thread-safe; the word's arena must stay open across a wait (a closed mapping
 * makes the call fail with {@code EFAULT}, never crash, because only the address is passed).
 */
public final class Futex {
    /** What ended a {@link #await} call. */
    public enum Outcome {
        /** A wake (or a spurious return): re-check the condition. */
        WOKEN,
        /** The timeout passed with no wake. */
        TIMED_OUT,
        /** The word no longer held the expected value when the kernel looked: nothing to wait for. */
        VALUE_CHANGED,
        /** A signal interrupted the wait. */
        INTERRUPTED
    }

    /** Every variadic {@code syscall(2)} argument is passed as a {@code long} (see the class comment). */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final long SYS_FUTEX = futexSyscallNumber();
    private static final MethodHandle SYSCALL = NativeCalls.libc("syscall",
            FunctionDescriptor.of(WORD, WORD, WORD, WORD,
                    WORD, WORD, WORD, WORD),
            Linker.Option.firstVariadicArg(1));

    private Futex() {
    }

    /**
     * Sleeps while the word at {@code offset} equals {@code expected}, at most {@code timeoutNs}.
     * The kernel compares and enqueues atomically, so a wake that follows a change of the word
     * cannot be lost.
     *
     * @throws IllegalStateException on an errno other than timeout, value change or interrupt
     *         (for example {@code EFAULT} after the mapping was closed)
     */
    public static Outcome await(MemorySegment segment, long offset, int expected, long timeoutNs) {
        long address = wordAddress(segment, offset);
        if (timeoutNs <= 0) {
            return Outcome.TIMED_OUT;
        }
        MemorySegment scratch = NativeCalls.scratch();
        // struct timespec { long tv_sec; long tv_nsec; } in the thread's argument area: a relative timeout.
        scratch.set(WORD, 0, timeoutNs / 1_000_000_000L);
        scratch.set(WORD, 8, timeoutNs % 1_000_000_000L);
        MemorySegment capture = NativeCalls.scratchCaptureState();
        if (CallCounters.ON) {
            CallCounters.add(Event.FUTEX_WAIT);
        }
        long result = invoke(capture, address, FUTEX_WAIT, expected, scratch.address());
        if (result == 0) {
            return Outcome.WOKEN;
        }
        int errno = NativeCalls.errno(capture);
        return switch (errno) {
            case NativeCalls.ETIMEDOUT -> Outcome.TIMED_OUT;
            case NativeCalls.EAGAIN -> Outcome.VALUE_CHANGED;
            case NativeCalls.EINTR -> Outcome.INTERRUPTED;
            default -> throw new IllegalStateException("futex wait at 0x" + Long.toHexString(address)
                    + " failed: " + NativeCalls.errnoName(errno));
        };
    }

    /**
     * Wakes up to {@code count} waiters sleeping on the word at {@code offset}.
     *
     * @return how many were woken
     */
    public static int wake(MemorySegment segment, long offset, int count) {
        long address = wordAddress(segment, offset);
        MemorySegment capture = NativeCalls.scratchCaptureState();
        if (CallCounters.ON) {
            CallCounters.add(Event.FUTEX_WAKE);
        }
        long result = invoke(capture, address, FUTEX_WAKE, count, 0L);
        if (result < 0) {
            throw new IllegalStateException("futex wake at 0x" + Long.toHexString(address) + " failed: "
                    + NativeCalls.errnoName(NativeCalls.errno(capture)));
        }
        return (int) result;
    }

    private static long invoke(MemorySegment capture, long address, int op, int value, long timespecAddress) {
        try {
            return (long) SYSCALL.invokeExact(capture, SYS_FUTEX, address, (long) op,
                    Integer.toUnsignedLong(value), timespecAddress, 0L, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex syscall could not be invoked", t);
        }
    }

    private static long wordAddress(MemorySegment segment, long offset) {
        Objects.requireNonNull(segment, "segment");
        Objects.checkFromIndexSize(offset, 4, segment.byteSize());
        if (!segment.isNative()) {
            throw new IllegalArgumentException("a futex word must live in native (mapped) memory");
        }
        long address = segment.address() + offset;
        if ((address & 3) != 0) {
            throw new IllegalArgumentException("a futex word must be 4-byte aligned, address 0x" + Long.toHexString(address));
        }
        return address;
    }

    private static long futexSyscallNumber() {
        String arch = System.getProperty("os.arch");
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            throw new UnsupportedOperationException("futexes need Linux, this is " + System.getProperty("os.name"));
        }
        return switch (arch) {
            case "amd64", "x86_64" -> 202;
            case "aarch64", "riscv64" -> 98;
            default -> throw new UnsupportedOperationException("no futex syscall number known for " + arch);
        };
    }
}
