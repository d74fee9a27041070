package io.railcoll.transport.mcast;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * Wraps a {@link DatagramPort} and applies a {@link FaultPlan} to what it receives, the way Aeron's loss
 * generators sit on a real socket's receive path: every datagram draws, in this order, loss (dropped), corruption
 * (one random bit flipped), duplication (delivered twice) and reordering (held back and delivered right after the
 * next datagram, or as soon as nothing else is waiting, so nothing is held forever). Sending is untouched, so a
 * multicast datagram draws independently at each receiver, as behind a switch port. Deterministic for a given
 * seed and arrival order. One owner thread.
 */
public final class FaultInjectingPort implements DatagramPort {
    private final DatagramPort inner;
    private final FaultPlan plan;
    private final SplittableRandom random;
    private final ArrayDeque<ByteBuffer> ready = new ArrayDeque<>();
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private ByteBuffer held;
    private long dropped;
    private long corrupted;
    private long duplicated;
    private long reordered;

    public FaultInjectingPort(DatagramPort inner, FaultPlan plan) {
        this.inner = inner;
        this.plan = plan;
        this.random = new SplittableRandom(plan.seed());
    }

    @Override
    public boolean send(ByteBuffer datagram) throws IOException {
        return inner.send(datagram);
    }

    @Override
    public boolean receive(ByteBuffer into) throws IOException {
        if (!ready.isEmpty()) {
            deliver(ready.poll(), into);
            return true;
        }
        while (true) {
            ByteBuffer d = take();
            if (!inner.receive(d)) {
                free.push(d);
                if (held != null) {
                    ByteBuffer h = held;
                    held = null;
                    deliver(h, into);
                    return true;
                }
                return false;
            }
            if (plan.loss() > 0 && random.nextDouble() < plan.loss()) {
                dropped++;
                free.push(d);
                continue;
            }
            if (plan.corrupt() > 0 && random.nextDouble() < plan.corrupt() && d.limit() > 0) {
                int bit = random.nextInt(d.limit() * 8);
                d.put(bit >>> 3, (byte) (d.get(bit >>> 3) ^ (1 << (bit & 7))));
                corrupted++;
            }
            if (plan.duplicate() > 0 && random.nextDouble() < plan.duplicate()) {
                ByteBuffer copy = take();
                copy.clear();
                copy.put(d.duplicate()).flip();
                ready.add(copy);
                duplicated++;
            }
            if (held == null && plan.reorder() > 0 && random.nextDouble() < plan.reorder()) {
                // Its copy (if duplicated) goes first; the original waits for whatever arrives next.
                held = d;
                reordered++;
                if (!ready.isEmpty()) {
                    deliver(ready.poll(), into);
                    return true;
                }
                continue;
            }
            if (held != null) {
                ready.add(held);
                held = null;
            }
            deliver(d, into);
            return true;
        }
    }

    @Override
    public void await(long maxWaitNs) {
        if (ready.isEmpty() && held == null) {
            inner.await(maxWaitNs);
        }
    }

    @Override
    public void wakeup() {
        inner.wakeup();
    }

    private ByteBuffer take() {
        ByteBuffer b = free.poll();
        return b != null ? b : ByteBuffer.allocate(MulticastSettings.MAX_PAYLOAD_BYTES + DatagramHeader.BYTES + 64);
    }

    private void deliver(ByteBuffer d, ByteBuffer into) {
        into.clear();
        into.put(d.duplicate().position(0)).flip();
        free.push(d);
    }

    public long dropped() {
        return dropped;
    }

    public long corrupted() {
        return corrupted;
    }

    public long duplicated() {
        return duplicated;
    }

    public long reordered() {
        return reordered;
    }

    @Override
    public String describe() {
        return inner.describe() + " with injected faults " + plan;
    }

    @Override
    public void close() {
        inner.close();
    }
}
