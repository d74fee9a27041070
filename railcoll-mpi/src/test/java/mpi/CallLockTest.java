package mpi;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A communicator's call lock (decision 0209): one thread inside at a time, nested calls of that thread let through,
 * another thread refused at once below THREAD_MULTIPLE and let in after the first leaves with it, freeing waits for a
 * call in progress, and what one thread wrote inside is seen by the next. Waits here have deadlines; nothing is timed.
 */
class CallLockTest {
    private static final long DEADLINE_S = 30;

    @Test
    void aNestedCallOfTheThreadInsidePassesAndTheLastExitLetsTheNextThreadIn() throws Exception {
        CallLock lock = new CallLock();
        assertTrue(lock.tryEnter(false));
        assertFalse(lock.nested());
        assertTrue(lock.tryEnter(false), "the thread inside calls again (a user op calling MPI)");
        assertTrue(lock.nested());
        lock.exit();
        assertFalse(lock.nested());
        assertFalse(onOtherThread(() -> lock.tryEnter(false)), "still inside after the nested call's exit");
        lock.exit();
        assertTrue(onOtherThread(() -> {
            boolean in = lock.tryEnter(false);
            if (in) {
                lock.exit();
            }
            return in;
        }), "free after the outer call's exit");
    }

    @Test
    void belowThreadMultipleAnotherThreadIsRefusedAtOnceAndTheOneInsideKeepsTheLock() throws Exception {
        CallLock lock = new CallLock();
        assertTrue(lock.tryEnter(false));
        assertFalse(onOtherThread(() -> lock.tryEnter(false)));
        assertTrue(lock.tryEnter(false), "the refusal left the lock with the thread inside");
        lock.exit();
        lock.exit();
    }

    @Test
    void withThreadMultipleAnotherThreadWaitsForItsTurn() throws Exception {
        CallLock lock = new CallLock();
        assertTrue(lock.tryEnter(true));
        AtomicBoolean firstLeft = new AtomicBoolean();
        AtomicReference<String> problem = new AtomicReference<>();
        CountDownLatch in = new CountDownLatch(1);
        Thread second = new Thread(() -> {
            if (!lock.tryEnter(true)) {
                problem.set("refused");
            } else if (!firstLeft.get()) {
                problem.set("got in while the first thread was inside");
            }
            in.countDown();
            lock.exit();
        });
        second.start();
        assertFalse(in.await(50, TimeUnit.MILLISECONDS), "the second thread got in while the first was inside");
        firstLeft.set(true);
        lock.exit();
        assertTrue(in.await(DEADLINE_S, TimeUnit.SECONDS), "the second thread never got in");
        second.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        assertNull(problem.get());
    }

    @Test
    void enterWaitsForACallThatGotInBelowThreadMultiple() throws Exception {
        CallLock lock = new CallLock();
        assertTrue(lock.tryEnter(false));
        AtomicBoolean callLeft = new AtomicBoolean();
        AtomicReference<String> problem = new AtomicReference<>();
        CountDownLatch in = new CountDownLatch(1);
        Thread freeing = new Thread(() -> {
            lock.enter();
            if (!callLeft.get()) {
                problem.set("got in while the call was inside");
            }
            in.countDown();
            lock.exit();
        });
        freeing.start();
        assertFalse(in.await(50, TimeUnit.MILLISECONDS), "free got in while the call was inside");
        callLeft.set(true);
        lock.exit();
        assertTrue(in.await(DEADLINE_S, TimeUnit.SECONDS), "free never got in");
        freeing.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        assertNull(problem.get());
    }

    /**
     * Wired into the communicator: while a call is inside (its user op running), a call from another thread is
     * refused with an MPI error that says why, and the call inside completes.
     */
    @Test
    void aCommunicatorRefusesACallFromAnotherThreadWhileACallIsInside() throws Exception {
        Singleton.init();
        List<Object> got = InProcessComms.onRanks(2, (comm, rank) -> {
            AtomicReference<Object> refusal = new AtomicReference<>();
            Op sum = new Op(new UserFunction() {
                @Override
                public void call(Object inBuf, Object inOutBuf, int count, Datatype type) throws MPIException {
                    if (refusal.get() == null) {
                        Thread other = new Thread(() -> {
                            try {
                                comm.barrier();
                                refusal.set("the other thread's barrier was let in");
                            } catch (MPIException e) {
                                refusal.set(e);
                            }
                        });
                        other.start();
                        try {
                            other.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        if (other.isAlive()) {
                            refusal.set("the other thread's barrier is still waiting");
                        }
                    }
                    int[] a = (int[]) inBuf;
                    int[] b = (int[]) inOutBuf;
                    for (int i = 0; i < count; i++) {
                        b[i] += a[i];
                    }
                }
            }, true);
            int[] x = {rank + 1};
            int[] y = new int[1];
            comm.allReduce(x, y, 1, MPI.INT, sum);
            assertEquals(3, y[0]);
            Object r = refusal.get();
            if (r == null) {
                return "no combine on this rank";
            }
            if (!(r instanceof MPIException e)) {
                return r;
            }
            return e.getErrorClass() == MPI.ERR_OTHER && e.getMessage().contains("another thread is inside")
                    ? "refused" : "refused with " + e.getErrorClass() + ": " + e.getMessage();
        });
        assertTrue(got.contains("refused"), got.toString());
        for (Object g : got) {
            assertTrue(g.equals("refused") || g.equals("no combine on this rank"), got.toString());
        }
    }

    /** A plain counter, changed only inside the lock by several threads taking turns: no increment is lost. */
    @Test
    void whatOneThreadWroteInsideTheNextSees() throws Exception {
        CallLock lock = new CallLock();
        int[] counter = {0};
        int threads = 4;
        int rounds = 20_000;
        Thread[] t = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            t[i] = new Thread(() -> {
                for (int r = 0; r < rounds; r++) {
                    // Half the time the way a THREAD_MULTIPLE call comes in, half the way free comes in.
                    if (r % 2 == 0) {
                        lock.tryEnter(true);
                    } else {
                        lock.enter();
                    }
                    counter[0]++;
                    lock.exit();
                }
            });
            t[i].start();
        }
        for (Thread x : t) {
            x.join(TimeUnit.SECONDS.toMillis(DEADLINE_S * 4));
            assertFalse(x.isAlive(), "a thread is still waiting for the lock");
        }
        assertEquals(threads * rounds, counter[0]);
    }

    private static boolean onOtherThread(java.util.function.BooleanSupplier s) throws Exception {
        boolean[] got = new boolean[1];
        Thread t = new Thread(() -> got[0] = s.getAsBoolean());
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
        assertFalse(t.isAlive(), "the other thread is still waiting");
        return got[0];
    }
}
