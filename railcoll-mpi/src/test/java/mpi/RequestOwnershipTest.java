package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A request is used by one thread at a time, and the operation behind it takes no lock (decision 0087): on 2 real
 * ranks ({@link InProcessComms}), rank 0 waits for an iRecv in one thread while a second thread tests the same
 * request. The second must get a prompt {@code MPI.ERR_REQUEST} error that names the misuse, not queue behind the
 * wait (a monitor made it wait until the message came, which here only comes after the error was seen), and the error
 * must leave the handle as it was; the wait then receives the message, which is checked, and the handle is null.
 * Either thread may be the one refused (whichever comes second); the waiting one retries.
 */
class RequestOwnershipTest {
    private static final long DEADLINE_S = 30;

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void aSecondThreadOnOneRequestIsRefusedAtOnceNotQueued() throws Exception {
        CountDownLatch refusalSeen = new CountDownLatch(1);
        List<Object> got = InProcessComms.onRanks(2, (comm, rank) -> {
            List<String> failures = new ArrayList<>();
            if (rank == 1) {
                if (!refusalSeen.await(2 * DEADLINE_S, TimeUnit.SECONDS)) {
                    failures.add("rank 0 never got as far as the refusal");
                }
                ByteBuffer out = MPI.newByteBuffer(8);
                for (int i = 0; i < 8; i++) {
                    out.put(i, (byte) (40 + i));
                }
                comm.send(out, 8, MPI.BYTE, 0, 9);
                return failures;
            }
            ByteBuffer in = MPI.newByteBuffer(8);
            Request r = comm.iRecv(in, 8, MPI.BYTE, 1, 9);
            AtomicReference<String> refusal = new AtomicReference<>();
            AtomicBoolean handleKept = new AtomicBoolean();
            AtomicReference<Throwable> waiterFailed = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2 * DEADLINE_S);
                while (System.nanoTime() < end) {
                    try {
                        r.waitFor();
                        return;
                    } catch (MPIException e) {
                        if (e.getErrorClass() != MPI.ERR_REQUEST) {
                            waiterFailed.set(e);
                            return;
                        }
                        refused(refusal, handleKept, r, e, refusalSeen); // the tester held it: wait again
                        sleepMs(1);
                    }
                }
                waiterFailed.set(new AssertionError("the wait did not end in " + 2 * DEADLINE_S + " s"));
            }, "rank 0 waiter");
            waiter.start();
            Thread tester = new Thread(() -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_S);
                while (System.nanoTime() < end && refusalSeen.getCount() > 0) {
                    try {
                        if (r.test()) {
                            return;
                        }
                    } catch (MPIException e) {
                        if (e.getErrorClass() == MPI.ERR_REQUEST) {
                            refused(refusal, handleKept, r, e, refusalSeen);
                            return;
                        }
                        failures.add("the tester got " + e);
                        return;
                    }
                    sleepMs(1);
                }
            }, "rank 0 tester");
            tester.start();
            tester.join(TimeUnit.SECONDS.toMillis(DEADLINE_S + 10));
            if (tester.isAlive()) {
                failures.add("the second thread's test was still blocked after " + (DEADLINE_S + 10) + " s");
            }
            refusalSeen.countDown(); // let rank 1 send whatever happened, so that nothing hangs
            waiter.join(TimeUnit.SECONDS.toMillis(3 * DEADLINE_S));
            tester.join(TimeUnit.SECONDS.toMillis(DEADLINE_S));
            if (waiter.isAlive()) {
                failures.add("the wait did not end");
            }
            if (waiterFailed.get() != null) {
                failures.add("the waiter failed: " + waiterFailed.get());
            }
            String message = refusal.get();
            if (message == null) {
                failures.add("no thread was refused: the second thread queued behind the first");
            } else if (!message.contains("another thread") || !message.contains("iRecv")) {
                failures.add("the refusal does not say what happened: " + message);
            }
            if (message != null && !handleKept.get()) {
                failures.add("the refusal made the request null while the other thread's wait held it");
            }
            if (!r.isNull()) {
                failures.add("the request is not null after its wait");
            }
            for (int i = 0; i < 8; i++) {
                if (in.get(i) != (byte) (40 + i)) {
                    failures.add("byte " + i + " is " + in.get(i));
                    break;
                }
            }
            return failures;
        });
        assertEquals(List.of(), got.get(0), "rank 0");
        assertEquals(List.of(), got.get(1), "rank 1");
    }

    private static void refused(AtomicReference<String> refusal, AtomicBoolean handleKept, Request r, MPIException e,
                                CountDownLatch refusalSeen) {
        if (refusal.compareAndSet(null, e.getMessage())) {
            handleKept.set(!r.isNull());
            refusalSeen.countDown();
        }
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
