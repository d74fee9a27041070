package io.railcoll.transport.mcast;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Several protocol instances (one per communicator, or one after another) over one shared {@link ControlLink}:
 * each {@link #channel(int) channel} prefixes what it sends with its id (4 bytes, little-endian) and receives only
 * messages with its id. Without this, a member that finished one group's final synchronization and opened the
 * next group could have its first control message consumed by a peer still running the previous instance.
 * Messages for a channel not opened yet wait in its queue; messages for a closed channel are dropped (a closed
 * instance finished its last synchronization, so nothing it could need is still in flight).
 *
 * <p>Threading: the owner thread of the protocols; the shared link's arrival callback may come from any thread
 * and only wakes the channels' owners. The caller owns and closes the shared link.
 */
public final class ControlMux {
    private final ControlLink shared;
    private final Map<Integer, ArrayDeque<Object[]>> queues = new HashMap<>();
    private final Map<Integer, Boolean> closed = new HashMap<>();
    private final CopyOnWriteArrayList<Runnable> wakeups = new CopyOnWriteArrayList<>();
    private ByteBuffer out = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    private final ControlLink.Handler sorter = this::sort;

    public ControlMux(ControlLink shared) {
        this.shared = shared;
        shared.onArrival(() -> {
            for (Runnable r : wakeups) {
                r.run();
            }
        });
    }

    /** The link of channel {@code id}; open it once, close it when its protocol is done. */
    public Channel channel(int id) {
        if (closed.containsKey(id)) {
            throw new IllegalStateException("control channel " + id + " was used already");
        }
        closed.put(id, false);
        queues.computeIfAbsent(id, k -> new ArrayDeque<>());
        return new Channel(id);
    }

    private void sort(int from, ByteBuffer m) {
        ByteBuffer b = m.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int id = b.getInt(b.position());
        if (Boolean.TRUE.equals(closed.get(id))) {
            return;
        }
        byte[] body = new byte[b.remaining() - 4];
        b.get(b.position() + 4, body);
        queues.computeIfAbsent(id, k -> new ArrayDeque<>()).add(new Object[] {from, body});
    }

    /** One instance's view of the shared link. */
    public final class Channel implements ControlLink, AutoCloseable {
        private final int id;
        private Runnable wakeup;

        private Channel(int id) {
            this.id = id;
        }

        @Override
        public void send(int peerRank, ByteBuffer message) {
            int len = message.remaining();
            if (out.capacity() < len + 4) {
                out = ByteBuffer.allocate(Math.max(len + 4, out.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
            }
            out.clear();
            out.putInt(id).put(message.duplicate()).flip();
            shared.send(peerRank, out);
        }

        @Override
        public int poll(Handler handler) {
            shared.poll(sorter);
            ArrayDeque<Object[]> q = queues.get(id);
            if (q == null) {
                return 0; // closed: nothing is for it any more, but polling keeps sorting for the others
            }
            int n = 0;
            for (Object[] m; (m = q.poll()) != null; n++) {
                handler.onMessage((Integer) m[0], ByteBuffer.wrap((byte[]) m[1]));
            }
            return n;
        }

        @Override
        public void onArrival(Runnable r) {
            if (wakeup != null) {
                wakeups.remove(wakeup);
            }
            wakeup = r;
            wakeups.add(r);
        }

        /** Stops receiving for this id; later messages for it are dropped. */
        @Override
        public void close() {
            closed.put(id, true);
            queues.remove(id);
            if (wakeup != null) {
                wakeups.remove(wakeup);
            }
        }
    }
}
