package io.railcoll.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.railcoll.memory.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** Cross-memory attach against this very process (allowed for oneself) and against dead pids. */
class CmaTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void readsAndWritesAnotherAddressRangeByPid() {
        try (Arena arena = Arena.ofConfined()) {
            long size = 3 * 1024 * 1024 + 5;
            MemorySegment source = arena.allocate(size);
            for (long i = 0; i < size; i += 8) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i / 8));
            }
            MemorySegment target = arena.allocate(size + 16);
            Cma.read(SELF, source.address(), target, 16, size);
            assertEquals(-1, MemorySegment.mismatch(source, 0, size, target, 16, size + 16));

            MemorySegment back = arena.allocate(size);
            Cma.write(SELF, back.address(), target, 16, size);
            assertEquals(-1, source.mismatch(back));
            Cma.read(SELF, source.address(), target, 0, 0); // nothing to do, no syscall
        }
    }

    @Test
    void probeComparesTheWordAtTheRemoteAddress() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(ValueLayout.JAVA_LONG);
            word.set(ValueLayout.JAVA_LONG, 0, RegionHeader.MAGIC);
            assertTrue(Cma.probe(SELF, word.address(), RegionHeader.MAGIC));
            assertFalse(Cma.probe(SELF, word.address(), 42));
        }
    }

    @Test
    void anUnmappedRemoteAddressFailsWithEfault() {
        try (Arena arena = Arena.ofConfined()) {
            ShmException e = assertThrows(ShmException.class, () -> Cma.read(SELF, 8, arena.allocate(64), 0, 64));
            assertEquals(ShmException.Reason.CMA_FAILED, e.reason());
            assertTrue(e.getMessage().contains("EFAULT"), e.getMessage());
        }
    }

    @Test
    void aDeadProcessIsReportedAsLost() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        try (Arena arena = Arena.ofConfined()) {
            ShmException e = assertThrows(ShmException.class,
                    () -> Cma.read(done.pid(), 4096, arena.allocate(64), 0, 64));
            assertEquals(ShmException.Reason.PEER_LOST, e.reason());
            assertTrue(e.getMessage().contains("ESRCH"), e.getMessage());
        }
    }

    @Test
    void permissionRefusalsBecomeDeniedWithTheReason() {
        ShmException denied = Cma.failure("process_vm_readv", NativeCalls.EPERM, 123, 0x1000, 0, 64);
        assertEquals(ShmException.Reason.CMA_DENIED, denied.reason());
        assertTrue(denied.getMessage().contains("ptrace") || denied.getMessage().contains("Yama"), denied.getMessage());
        assertTrue(denied.getMessage().contains("fall back"), denied.getMessage());
        assertEquals(ShmException.Reason.CMA_DENIED, Cma.failure("x", NativeCalls.ENOSYS, 1, 0, 0, 1).reason());
        assertEquals(ShmException.Reason.CMA_FAILED, Cma.failure("x", NativeCalls.ENOMEM, 1, 0, 0, 1).reason());
    }

    @Test
    void heapSegmentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Cma.read(SELF, 4096, MemorySegment.ofArray(new byte[8]), 0, 8));
    }

    @Test
    void theReusableReaderReadsRepeatedlyAndMapsErrorsTheSameWay() {
        try (Arena arena = Arena.ofConfined()) {
            Cma.Copier reader = new Cma.Copier(arena);
            MemorySegment source = arena.allocate(1 << 20);
            MemorySegment target = arena.allocate(1 << 20);
            for (int round = 0; round < 5; round++) {
                byte b = (byte) (round * 37 + 1);
                source.fill(b);
                long off = round * 4099L;
                reader.read(SELF, source.address() + off, target, off, (1 << 20) - off);
                assertEquals(-1, MemorySegment.mismatch(source, off, 1 << 20, target, off, 1 << 20), "round " + round);
            }
            ShmException e = assertThrows(ShmException.class, () -> reader.read(SELF, 8, target, 0, 64));
            assertEquals(ShmException.Reason.CMA_FAILED, e.reason());
            assertThrows(IllegalArgumentException.class, () -> reader.read(SELF, 4096, MemorySegment.ofArray(new byte[8]), 0, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> reader.read(SELF, source.address(), target, 1, 1 << 20));
        }
    }
}
