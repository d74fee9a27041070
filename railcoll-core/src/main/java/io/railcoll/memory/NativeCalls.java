package io.railcoll.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Downcalls into libc through the FFM linker, with {@code errno} captured at the call.
 *
 * <p>Each thread gets a small scratch segment ({@link #scratch()}) holding the errno capture
 * state and room for call arguments such as a {@code timespec}, so a syscall on a hot-ish path
 * (a futex wait or wake) allocates nothing. The scratch lives in an automatic arena and is
 * reclaimed when its thread is gone.
 *
 * <p>Thread-safe. Needs {@code --enable-native-access} for the calling module.
 */
public final class NativeCalls {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** Bytes of the per-thread argument area that precedes the capture state. */
    public static final long ARGUMENT_BYTES = 64;
    private static final long SCRATCH_BYTES = ARGUMENT_BYTES + CAPTURE_LAYOUT.byteSize();
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(SCRATCH_BYTES, 16));
    /** The capture-state part of each thread's scratch, sliced once rather than at every call. */
    private static final ThreadLocal<MemorySegment> CAPTURE = ThreadLocal.withInitial(() -> captureState(SCRATCH.get()));

    public static final int EPERM = 1;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EFAULT = 14;
    public static final int EINVAL = 22;
    public static final int ENOSYS = 38;
    public static final int ETIMEDOUT = 110;

    private NativeCalls() {
    }

    /**
     * A libc function bound with errno capture: the returned handle takes a capture segment
     * ({@link #captureState}) as its first argument, then the function's own arguments. Binding
     * is a restricted operation: the JVM must run with {@code --enable-native-access}.
     */
    @SuppressWarnings("restricted")
    public static MethodHandle libc(String name, FunctionDescriptor descriptor, Linker.Option... extra) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("libc has no symbol '" + name + "'"));
        Linker.Option[] options = new Linker.Option[extra.length + 1];
        options[0] = Linker.Option.captureCallState("errno");
        System.arraycopy(extra, 0, options, 1, extra.length);
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** This thread's scratch: {@link #ARGUMENT_BYTES} bytes of arguments, then the capture state. */
    public static MemorySegment scratch() {
        return SCRATCH.get();
    }

    /** This thread's {@code captureState(scratch())}, without allocating a slice per call. */
    public static MemorySegment scratchCaptureState() {
        return CAPTURE.get();
    }

    /** The capture-state part of a scratch segment, to pass as a downcall's first argument. */
    public static MemorySegment captureState(MemorySegment scratch) {
        return scratch.asSlice(ARGUMENT_BYTES, CAPTURE_LAYOUT.byteSize());
    }

    /** The errno recorded by the last downcall that used {@code captureState}. */
    public static int errno(MemorySegment captureState) {
        return (int) ERRNO.get(captureState, 0L);
    }

    /** A short name for the errno values railcoll reports, else "errno N". */
    public static String errnoName(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EFAULT -> "EFAULT";
            case EINVAL -> "EINVAL";
            case ENOSYS -> "ENOSYS";
            case ETIMEDOUT -> "ETIMEDOUT";
            default -> "errno " + errno;
        };
    }
}
