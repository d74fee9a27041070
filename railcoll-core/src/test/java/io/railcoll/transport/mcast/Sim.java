package io.railcoll.transport.mcast;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Runs a group of {@link BroadcastProtocol}s on a {@link SimNetwork} in one thread with a simulated clock: every
 * member works through the same script of broadcasts (root, length), then a flush; payloads are a pattern of
 * (seq, root, index), checked byte for byte at each receiver when its broadcast completes. After completion the
 * receiver overwrites its buffer with a sentinel, like a user reusing it, and the end of the run checks the
 * sentinels: a datagram or tree chunk written into a delivered broadcast would show there.
 */
final class Sim {
    record Step(int rootRank, int length) {
    }

    final SimNetwork net = new SimNetwork();
    final int[] ranks;
    final BroadcastProtocol[] members;
    final MulticastCounters[] counters;
    final FaultInjectingPort[] faulty;
    final SimNetwork.Port[] ports;
    final SimNetwork.Link[] links;
    final List<String> log = new ArrayList<>();
    final List<List<Long>> delivered = new ArrayList<>();
    final List<MemorySegment> reused = new ArrayList<>();
    long nowNs = 1_000_000_000L;
    long stepNs = 5_000;
    /** Members that stop calling doWork (a hung process). */
    final boolean[] frozen;
    /** Per member, how many steps pass between its doWork calls (1: every step); more is a descheduled process. */
    final int[] workEverySteps;
    /** When set, a member's failure is recorded here (and the member stops) instead of ending the run. */
    java.util.Map<Integer, RuntimeException> failures;
    /** Runs before every step with the simulated time (e.g. to release held control messages). */
    java.util.function.LongConsumer beforeStep = now -> { };

    Sim(int[] ranks, MulticastSettings settings, FaultPlan faults, int communicatorId, boolean[] unavailable) {
        this.ranks = ranks.clone();
        members = new BroadcastProtocol[ranks.length];
        counters = new MulticastCounters[ranks.length];
        faulty = new FaultInjectingPort[ranks.length];
        ports = new SimNetwork.Port[ranks.length];
        links = new SimNetwork.Link[ranks.length];
        frozen = new boolean[ranks.length];
        workEverySteps = new int[ranks.length];
        java.util.Arrays.fill(workEverySteps, 1);
        for (int i = 0; i < ranks.length; i++) {
            counters[i] = new MulticastCounters();
            ports[i] = net.port();
            DatagramPort p = ports[i];
            if (!faults.isNone()) {
                faulty[i] = new FaultInjectingPort(p, faults.withSeed(faults.seed() * 31 + i));
                p = faulty[i];
            }
            boolean down = unavailable != null && unavailable[i];
            links[i] = net.link(ranks[i]);
            members[i] = new BroadcastProtocol(ranks, ranks[i], 77L, communicatorId, settings, down ? null : p,
                    down ? "sim: join refused" : null, links[i], counters[i], log::add);
            delivered.add(new ArrayList<>());
        }
    }

    static byte pattern(long seq, int root, int i) {
        return (byte) (seq * 131 + root * 17 + i * 7 + (i >>> 8) * 3 + (i >>> 16));
    }

    static MemorySegment payload(long seq, int root, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = pattern(seq, root, i);
        }
        return MemorySegment.ofArray(b);
    }

    /** Runs the script on every member; returns the simulated nanoseconds it took. Throws the first failure. */
    long run(List<Step> script, long limitNs) {
        int n = members.length;
        int[] next = new int[n];
        boolean[] flushed = new boolean[n];
        boolean[] done = new boolean[n];
        MemorySegment[] buf = new MemorySegment[n];
        long start = nowNs;
        for (BroadcastProtocol m : members) {
            m.postJoin(nowNs);
        }
        for (long stepIndex = 0; ; stepIndex++) {
            beforeStep.accept(nowNs);
            boolean all = true;
            for (int i = 0; i < n; i++) {
                if (frozen[i]) {
                    continue;
                }
                if (stepIndex % workEverySteps[i] != 0) {
                    all &= done[i];
                    continue;
                }
                BroadcastProtocol m = members[i];
                try {
                    step(i, m, script, next, flushed, done, buf);
                } catch (RuntimeException e) {
                    if (failures == null) {
                        throw e;
                    }
                    failures.put(ranks[i], e);
                    frozen[i] = true;
                }
                all &= done[i];
            }
            boolean anyRunning = false;
            for (int i = 0; i < n; i++) {
                anyRunning |= !frozen[i] && !done[i];
            }
            if (all || !anyRunning) {
                break;
            }
            nowNs += stepNs;
            if (nowNs - start > limitNs) {
                throw new AssertionError("simulation did not finish in " + limitNs / 1_000_000 + " simulated ms");
            }
        }
        for (MemorySegment s : reused) {
            for (long i = 0; i < s.byteSize(); i++) {
                if (s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != (byte) 0x5a) {
                    throw new AssertionError("a delivered broadcast's buffer was written after delivery at byte " + i);
                }
            }
        }
        return nowNs - start;
    }

    private void step(int i, BroadcastProtocol m, List<Step> script, int[] next, boolean[] flushed, boolean[] done,
                      MemorySegment[] buf) {
                if (!done[i] && m.isDone()) {
                    if (buf[i] != null) {
                        complete(i, next[i] - 1, script.get(next[i] - 1), buf[i]);
                        buf[i] = null;
                    }
                    if (next[i] < script.size()) {
                        Step s = script.get(next[i]++);
                        buf[i] = s.rootRank == ranks[i] ? payload(m.nextSeq(), s.rootRank, s.length)
                                : MemorySegment.ofArray(new byte[s.length]);
                        m.postBroadcast(buf[i], s.rootRank, nowNs);
                    } else if (!flushed[i]) {
                        flushed[i] = true;
                        m.postFlush(nowNs);
                    } else {
                        done[i] = true;
                    }
                }
                m.doWork(nowNs);
    }

    private void complete(int i, long seq, Step s, MemorySegment b) {
        delivered.get(i).add(seq);
        if (s.rootRank == ranks[i]) {
            return;
        }
        byte[] got = b.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        for (int k = 0; k < got.length; k++) {
            if (got[k] != pattern(seq, s.rootRank, k)) {
                throw new AssertionError("rank " + ranks[i] + ": broadcast #" + seq + " (" + s.length + " bytes from rank "
                        + s.rootRank + ") differs at byte " + k + ": " + got[k] + " != " + pattern(seq, s.rootRank, k));
            }
        }
        b.fill((byte) 0x5a);
        reused.add(b);
    }

    long total(MulticastCounters.Counter c) {
        long t = 0;
        for (MulticastCounters k : counters) {
            t += k.get(c);
        }
        return t;
    }

    static List<Step> script(int[] ranks, int[] sizes, long seed) {
        Random r = new Random(seed);
        List<Step> out = new ArrayList<>();
        for (int size : sizes) {
            out.add(new Step(ranks[r.nextInt(ranks.length)], size));
        }
        return out;
    }
}
