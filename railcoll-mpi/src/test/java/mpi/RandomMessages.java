package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The random call test's point-to-point steps (decision 0219). Every rank draws the same messages (sender, receiver,
 * tag, send type and count, the send call: blocking, buffered, synchronous, ready, their i-forms and persistent forms),
 * and for each receiver how it receives them (i-forms posted first, persistent receives started by
 * {@link Prequest#startAll}, or blocking receives after the sends, some after a {@code probe} or an {@code iProbe}
 * loop) and which wildcards it uses ({@code ANY_SOURCE}, {@code ANY_TAG}, both or none: one pattern per receiver, so
 * every receive finds a message whatever matched before it). Which message a receive got is read from its status and
 * MPI's matching rule (the k-th receive, in posting order, that got a message of envelope (source, tag) got the k-th
 * such message its sender sent); the reference then says every byte of every buffer and the status's count and
 * elements (a message may end inside an element of the receive type: {@code getCount} is then {@code UNDEFINED}).
 * A persistent step restarts the same requests for several rounds, the send buffers refilled between rounds. A shift
 * step runs {@code sendRecv} or {@code sendRecvReplace} along a ring or a line ({@code PROC_NULL} at its ends).
 * Decision 0224: some ranks post a receive no message matches and cancel it (its status cancelled, its buffer
 * untouched), cancel some sends (they complete normally), free some started persistent sends in the last round (they
 * finish alone), try to free a started receive that its wait must copy (refused), and cancel posted receives while
 * their messages may be arriving (scored either way: cancelled and replaced, or completed normally).
 */
final class RandomMessages {
    private RandomMessages() {
    }

    private enum Receive { POSTED, PERSISTENT, LATE }

    private static final String[] SENDS = {"send", "sSend", "rSend", "bSend", "iSend", "isSend", "irSend", "ibSend",
            "sendInit", "sSendInit", "rSendInit", "bSendInit"};
    private static final String[] PERSISTENT_SENDS = {"sendInit", "sSendInit", "rSendInit", "bSendInit"};

    /** Message k: from, to, its tag, its send type and count, the send call. */
    private record Msg(int from, int to, int tag, RandomTypes.Model type, int count, String form) {
        int leaves() {
            return count * type.leaves();
        }
    }

    /**
     * A point-to-point step on {@code comm} ({@code size} ranks, this one {@code rank}); {@code buffered}: whether
     * buffered sends may be drawn (only where the whole test runs one rank, see {@link #exchange}).
     */
    static void next(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step, boolean buffered)
            throws MPIException {
        int kind = rnd.nextInt(4);
        if (kind == 0) {
            RandomShifts.next(comm, size, rank, rnd, seed, step);
        } else {
            exchange(comm, size, rank, rnd, seed, step, kind == 1, buffered);
        }
    }

    /** Needs the receive posted before it starts: ready sends by MPI's rule, the others as they may wait for it. */
    private static boolean needsPostedReceive(String form) {
        return switch (form) {
            case "send", "sSend", "rSend", "irSend", "rSendInit" -> true;
            default -> false;
        };
    }

    private static String withoutPostedReceive(String form) {
        return switch (form) {
            case "send", "rSend" -> "iSend";
            case "sSend", "irSend" -> "isSend";
            case "rSendInit" -> "sendInit";
            default -> form;
        };
    }

    private static void exchange(Intracomm comm, int size, int rank, SplittableRandom rnd, long seed, long step,
                                 boolean persistent, boolean buffered) throws MPIException {
        RandomTypes.Prim p = RandomTypes.Prim.values()[rnd.nextInt(RandomTypes.Prim.values().length)];
        Receive[] mode = new Receive[size];
        int[] wild = new int[size]; // bit 0: ANY_SOURCE, bit 1: ANY_TAG
        for (int r = 0; r < size; r++) {
            mode[r] = persistent ? Receive.PERSISTENT : Receive.values()[rnd.nextInt(3)];
            wild[r] = rnd.nextInt(4);
        }
        // A step of structs mixing primitives, a sixth of the time: every type of it has one signature (any message
        // may reach any receive of its receiver), in layouts of its own.
        RandomTypes.Model mixed = rnd.nextInt(6) == 0 ? RandomTypes.mixed(rnd) : null;
        int n = rnd.nextInt(2 * size + 2);
        Msg[] msgs = new Msg[n];
        for (int k = 0; k < n; k++) {
            int from = rnd.nextInt(size);
            int to = rnd.nextInt(size);
            String form = persistent ? PERSISTENT_SENDS[rnd.nextInt(PERSISTENT_SENDS.length)]
                    : SENDS[rnd.nextInt(SENDS.length)];
            if (!buffered) {
                // The ranks of InProcessComms share the process's attached buffer, whose bookkeeping tests every
                // buffered message from the calling thread: another rank's communicator, in use by its own thread
                // (in MPI a process is one rank). Buffered sends run where the test runs one rank only.
                form = switch (form) {
                    case "bSend" -> "send";
                    case "ibSend" -> "iSend";
                    case "bSendInit" -> "sendInit";
                    default -> form;
                };
            }
            if (mode[to] == Receive.LATE && needsPostedReceive(form)) {
                form = withoutPostedReceive(form);
            }
            RandomTypes.Model t = mixed != null ? RandomTypes.relayout(rnd, mixed) : RandomTypes.random(rnd, p, 2);
            msgs[k] = new Msg(from, to, rnd.nextInt(3), t, rnd.nextInt(4), form);
        }
        long[] maxLeaves = new long[size];
        for (Msg m : msgs) {
            maxLeaves[m.to] = Math.max(maxLeaves[m.to], m.leaves());
        }
        // Receive k (posted by msgs[k].to for msgs[k]) may get any message of its receiver's: room for the largest.
        RandomTypes.Model[] recvType = new RandomTypes.Model[n];
        int[] capacity = new int[n];
        for (int k = 0; k < n; k++) {
            RandomTypes.Model t = mixed != null ? RandomTypes.relayout(rnd, mixed) : RandomTypes.random(rnd, p, 2);
            recvType[k] = t.leaves() == 0 ? RandomTypes.predefined(p) : t;
            long l = recvType[k].leaves();
            capacity[k] = Math.toIntExact((maxLeaves[msgs[k].to] + l - 1) / l + rnd.nextInt(2));
        }
        // LATE receivers: 0 recv, 1 probe then recv, 2 iProbe loop then recv, 3 mProbe then mRecv, 4 imProbe loop
        // then imRecv (a receive of the message bound to a Message, decision 0105)
        int[] probe = new int[n];
        for (int k = 0; k < n; k++) {
            probe[k] = rnd.nextInt(5);
        }
        int rounds = persistent ? 2 + rnd.nextInt(2) : 1;
        boolean anyPersistent = java.util.Arrays.asList(mode).contains(Receive.PERSISTENT);
        String name = (persistent ? "persistent messages, " + rounds + " rounds" : "messages") + " over "
                + (mixed != null ? "[" + mixed.signature() + "]" : p);
        RandomCall c = new RandomCall(name, seed, step, rank, false);
        RandomCall.Arg[] send = new RandomCall.Arg[n];
        RandomCall.Arg[] recv = new RandomCall.Arg[n];
        for (int k = 0; k < n; k++) {
            Msg m = msgs[k];
            long[] s = new long[size];
            s[m.from] = m.count;
            send[k] = c.arg(m.type, s, false, !m.form.endsWith("end") || m.form.startsWith("i"));
            send[k].rounds = true;
            long[] r = new long[size];
            r[m.to] = capacity[k];
            recv[k] = c.arg(recvType[k], r, false, mode[m.to] != Receive.LATE || probe[k] == 4);
        }
        // Some ranks also send to PROC_NULL and receive from it (2 elements of the step's primitive, or of its mixed
        // struct): nothing moves, the receive's status says source PROC_NULL, tag ANY_TAG, count 0 (MPI 3.1 §3.11).
        RandomTypes.Model nullType = mixed != null ? mixed : RandomTypes.predefined(p);
        RandomCall.Arg[] nullIn = new RandomCall.Arg[size];
        RandomCall.Arg[] nullOut = new RandomCall.Arg[size];
        String[] nullForm = new String[size];
        for (int r = 0; r < size; r++) {
            long[] two = new long[size];
            two[r] = 2;
            if (rnd.nextInt(4) == 0) {
                nullIn[r] = c.arg(nullType, two, false, true);
            }
            if (rnd.nextInt(4) == 0) {
                nullOut[r] = c.arg(nullType, two, false, true);
                String f = persistent ? PERSISTENT_SENDS[rnd.nextInt(PERSISTENT_SENDS.length)]
                        : SENDS[rnd.nextInt(SENDS.length)];
                nullForm[r] = buffered ? f : switch (f) {
                    case "bSend" -> "send";
                    case "ibSend" -> "iSend";
                    case "bSendInit" -> "sendInit";
                    default -> f;
                };
            }
        }
        // Some ranks post a receive no message ever matches (tag STRAY_TAG, which nobody sends; from a random rank or
        // ANY_SOURCE) and cancel it: its status says cancelled, its buffer keeps every byte (decision 0224).
        RandomCall.Arg[] strayIn = new RandomCall.Arg[size];
        int[] straySource = new int[size];
        for (int r = 0; r < size; r++) {
            long[] two = new long[size];
            two[r] = 2;
            if (rnd.nextInt(4) == 0) {
                strayIn[r] = c.arg(nullType, two, false, true);
            }
            straySource[r] = rnd.nextInt(3) == 0 ? MPI.ANY_SOURCE : rnd.nextInt(size);
        }
        Prequest strayInit = strayIn[rank] != null && mode[rank] == Receive.PERSISTENT
                ? comm.recvInit(strayIn[rank].direct(), 2, nullType.type(), straySource[rank], STRAY_TAG) : null;
        Msg nullMsg = new Msg(rank, MPI.PROC_NULL, 3, nullType, 2, nullForm[rank] == null ? "iSend" : nullForm[rank]);
        int nullTag = (wild[rank] & 2) != 0 ? MPI.ANY_TAG : 3;
        Prequest nullRecvInit = nullIn[rank] != null && mode[rank] == Receive.PERSISTENT
                ? comm.recvInit(nullIn[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, nullTag) : null;
        Prequest nullSendInit = nullOut[rank] != null && nullMsg.form.endsWith("Init")
                ? switch (nullMsg.form) {
                    case "sendInit" -> comm.sendInit(nullOut[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, 3);
                    case "sSendInit" -> comm.sSendInit(nullOut[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, 3);
                    case "rSendInit" -> comm.rSendInit(nullOut[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, 3);
                    default -> comm.bSendInit(nullOut[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, 3);
                } : null;
        String where = "seed " + seed + " step " + step + " " + name + " rank " + rank;

        // Set up: persistent requests once; this rank's receives in message order, then its sends in message order.
        List<Integer> mine = new ArrayList<>(); // the messages this rank receives, in posting order
        List<Integer> sends = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            if (msgs[k].to == rank) {
                mine.add(k);
            }
            if (msgs[k].from == rank) {
                sends.add(k);
            }
        }
        Prequest[] recvInits = new Prequest[mode[rank] == Receive.PERSISTENT ? mine.size() : 0];
        for (int i = 0; i < recvInits.length; i++) {
            int k = mine.get(i);
            recvInits[i] = comm.recvInit(recv[k].direct(), capacity[k], recvType[k].type(), source(msgs[k], wild),
                    tag(msgs[k], wild));
        }
        Prequest[] sendInits = new Prequest[sends.size()];
        for (int i = 0; i < sends.size(); i++) {
            Msg m = msgs[sends.get(i)];
            RandomCall.Arg b = send[sends.get(i)];
            sendInits[i] = switch (m.form) {
                case "sendInit" -> comm.sendInit(b.direct(), m.count, m.type.type(), m.to, m.tag);
                case "sSendInit" -> comm.sSendInit(b.direct(), m.count, m.type.type(), m.to, m.tag);
                case "rSendInit" -> comm.rSendInit(b.direct(), m.count, m.type.type(), m.to, m.tag);
                case "bSendInit" -> comm.bSendInit(b.direct(), m.count, m.type.type(), m.to, m.tag);
                default -> null;
            };
        }
        SplittableRandom own = new SplittableRandom(RandomBuffers.mix(seed, step, rank, 11));
        for (int round = 0; round < rounds; round++) {
            c.round = round;
            String at = where + (persistent ? " round " + round : "");
            if (round > 0) {
                for (int k : sends) {
                    send[k].refill();
                }
            }
            Request[] pending = new Request[mine.size() + sends.size() + 3]; // PROC_NULL's two, the stray receive
            Status[] got = new Status[mine.size()];
            int nullAt = mine.size() + sends.size();
            int strayAt = nullAt + 2;
            boolean lastRound = round == rounds - 1;
            int freedRecv = -1; // the index in mine of a started receive freed this round (decision 0228)
            boolean freeEarly = false; // freed before the barrier (before any message exists), else after the sends
            // When this rank cancels its stray receive: 0 at once, 1 after its sends started, 2 after its late receives
            int strayCancel = own.nextInt(3);
            if (strayIn[rank] != null) {
                if (strayInit != null) {
                    strayInit.start();
                    pending[strayAt] = strayInit;
                } else {
                    pending[strayAt] = comm.iRecv(strayIn[rank].direct(), 2, nullType.type(), straySource[rank],
                            STRAY_TAG);
                }
                if (strayCancel == 0) {
                    pending[strayAt].cancel();
                }
                RandomCoverage.count("cancel of a receive no message matches (" + (strayInit != null ? "recvInit"
                        : "iRecv") + ", " + new String[] {"at once", "after the sends", "after the late receives"}
                        [strayCancel] + ")");
            }
            Status fromNull = null;
            if (nullIn[rank] != null) {
                if (nullRecvInit != null) {
                    nullRecvInit.start();
                    pending[nullAt] = nullRecvInit;
                } else if (mode[rank] == Receive.POSTED) {
                    pending[nullAt] = comm.iRecv(nullIn[rank].direct(), 2, nullType.type(), MPI.PROC_NULL, nullTag);
                } else {
                    fromNull = comm.recv(nullIn[rank].passed(), 2, nullType.type(), MPI.PROC_NULL, nullTag);
                }
            }
            if (nullOut[rank] != null) {
                pending[nullAt + 1] = send(comm, nullMsg, nullOut[rank], nullSendInit);
            }
            if (mode[rank] == Receive.PERSISTENT) {
                Prequest.startAll(recvInits);
                System.arraycopy(recvInits, 0, pending, 0, recvInits.length);
                if (recvInits.length > 0 && own.nextInt(4) == 0) {
                    int i = own.nextInt(recvInits.length);
                    // A slice of an array other than byte[] is never received into in place (railcoll moves native and
                    // byte[] memory): its wait must copy the elements over, so free is refused.
                    RandomCall.Arg b = recv[mine.get(i)];
                    if (b.kind(rank) == RandomBuffers.Kind.SLICE && b.m.storage() != RandomTypes.Prim.BYTE) {
                        refusedFree(recvInits[i], at + " receive for message " + mine.get(i));
                        RandomCoverage.count("free of a started recvInit into a heap slice (refused)");
                    }
                }
                // In the last round, a started receive that lands in place may be freed and left to finish alone
                // (MPI_Request_free of an active request): its message must still be taken, its buffer filled. Only
                // where this rank names source and tag in every receive (no wildcards), so which message it takes
                // is known without its status: the first of its envelope left, in posting order.
                List<Integer> inPlace = new ArrayList<>();
                for (int i = 0; i < recvInits.length; i++) {
                    if (landsInPlace(recv[mine.get(i)], rank)) {
                        inPlace.add(i);
                    }
                }
                if (lastRound && wild[rank] == 0 && !inPlace.isEmpty() && own.nextInt(2) == 0) {
                    int i = inPlace.get(own.nextInt(inPlace.size()));
                    freedRecv = i;
                    freeEarly = own.nextBoolean();
                    if (freeEarly) {
                        freeStarted(recvInits[i], at + " receive for message " + mine.get(i));
                        pending[i] = null;
                    }
                }
            } else if (mode[rank] == Receive.POSTED) {
                for (int i = 0; i < mine.size(); i++) {
                    int k = mine.get(i);
                    pending[i] = comm.iRecv(recv[k].direct(), capacity[k], recvType[k].type(), source(msgs[k], wild),
                            tag(msgs[k], wild));
                }
            }
            comm.barrier(); // every posted receive is posted before any send starts (ready sends need it)
            if (persistent) {
                Prequest.startAll(sendInits);
                System.arraycopy(sendInits, 0, pending, mine.size(), sendInits.length);
            } else {
                for (int i = 0; i < sends.size(); i++) {
                    pending[mine.size() + i] = send(comm, msgs[sends.get(i)], send[sends.get(i)], sendInits[i]);
                }
            }
            // A send asked to cancel completes normally (railcoll cancels no send; MPI allows either): its receiver
            // still gets it, and its status says it was not cancelled. In the last round of a persistent step, some
            // started sends are freed instead of completed: they finish alone (MPI_Request_free of an active request).
            boolean[] cancelled = new boolean[sends.size()];
            for (int i = 0; i < sends.size(); i++) {
                Request r = pending[mine.size() + i];
                if (r == null) {
                    continue;
                }
                int what = own.nextInt(6);
                if (what == 0) {
                    r.cancel();
                    cancelled[i] = true;
                    RandomCoverage.count("cancel of a send (" + msgs[sends.get(i)].form + ", completes)");
                } else if (what == 1 && persistent && lastRound) {
                    r.free();
                    RandomCoverage.count("free of a started " + msgs[sends.get(i)].form + " (finishes alone)");
                    if (!r.isNull()) {
                        throw new AssertionError(at + ": the started persistent send of message " + sends.get(i)
                                + " is not null after free");
                    }
                }
            }
            if (freedRecv >= 0 && !freeEarly) {
                freeStarted(recvInits[freedRecv], at + " receive for message " + mine.get(freedRecv));
                pending[freedRecv] = null;
            }
            if (pending[nullAt + 1] != null && own.nextInt(4) == 0) {
                pending[nullAt + 1].cancel(); // a send to PROC_NULL: finished already, the cancel is no error
                RandomCoverage.count("cancel of a send to PROC_NULL");
            }
            if (strayIn[rank] != null && strayCancel == 1) {
                pending[strayAt].cancel();
            }
            for (int i = 0; i < pending.length; i++) {
                pending[i] = pending[i] == null ? MPI.REQUEST_NULL : pending[i];
            }
            if (mode[rank] == Receive.LATE) {
                for (int i = 0; i < mine.size(); i++) {
                    int k = mine.get(i);
                    got[i] = late(comm, msgs[k], wild, probe[k], recv[k], capacity[k], recvType[k], own,
                            at + " message " + k);
                }
            }
            if (strayIn[rank] != null && strayCancel == 2) {
                pending[strayAt].cancel();
            }
            // Posted receives asked to cancel while their messages may be arriving, then waited for (a wait after a
            // cancel is local): either cancelled (nothing received, buffer untouched; a replacement receive of the
            // same pattern is posted at once, so a blocking send to this rank still finds one, and takes the message
            // left) or completed normally. Which one, the status says; both are scored (decision 0224).
            Status[] racedDone = new Status[mine.size()];
            RandomCall.Arg[] replacement = new RandomCall.Arg[mine.size()];
            // A persistent receive's round is raced the same way (decision 0228): cancelled, the request is inactive
            // and starts again next round; too late, it completed this round. Not in a round where this rank freed
            // a receive, whose message is known only by its posting order, which a replacement would change.
            if (mode[rank] != Receive.LATE && freedRecv < 0) {
                String what = mode[rank] == Receive.POSTED ? "posted receive" : "started recvInit";
                for (int i = 0; i < mine.size(); i++) {
                    if (own.nextInt(5) != 0) {
                        continue;
                    }
                    int k = mine.get(i);
                    pending[i].cancel();
                    Status r = pending[i].waitStatus();
                    if (mode[rank] == Receive.PERSISTENT) {
                        pending[i] = MPI.REQUEST_NULL; // inactive now; completed here, not by the array calls below
                    }
                    if (!r.isCancelled()) {
                        racedDone[i] = r;
                        RandomCoverage.count("cancel of a " + what + " while its message may arrive: too late");
                        continue;
                    }
                    RandomCoverage.count("cancel of a " + what + " while its message may arrive: cancelled");
                    long[] room = new long[size];
                    room[rank] = capacity[k];
                    replacement[i] = c.arg(recvType[k], room, false, true); // this rank's own, after the shared ones
                    pending[i] = comm.iRecv(replacement[i].direct(), capacity[k], recvType[k].type(),
                            source(msgs[k], wild), tag(msgs[k], wild));
                }
            }
            Status[] done = RandomCompletion.statuses(pending, own, at);
            for (int i = 0; i < sends.size(); i++) {
                if (cancelled[i] && (done[mine.size() + i] == null || done[mine.size() + i].isCancelled())) {
                    throw new AssertionError(at + ": the send of message " + sends.get(i) + " asked to cancel has"
                            + " status " + done[mine.size() + i] + "; railcoll cancels no send, so it completes");
                }
            }
            if (strayIn[rank] != null && (done[strayAt] == null || !done[strayAt].isCancelled())) {
                throw new AssertionError(at + ": the cancelled receive no message matches (from " + straySource[rank]
                        + ", tag " + STRAY_TAG + ") has status " + done[strayAt] + ", expected cancelled");
            }
            if (lastRound && anyPersistent) {
                // Every send of the step has completed on its sender: after this barrier a receive freed in flight
                // has taken its message (checked below with the others), and nothing is left for a later receive.
                // (Where some rank receives by recvInit: any of them may have freed one, in exchange steps too.)
                comm.barrier();
                if (freedRecv >= 0) {
                    Status left = comm.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                    if (left != null) {
                        throw new AssertionError(at + ": after a started receive (for message " + mine.get(freedRecv)
                                + ") was freed and every send completed, a message from rank " + left.getSource()
                                + " tag " + left.getTag() + " (" + left.getCount(MPI.BYTE) + " bytes) is still"
                                + " unreceived");
                    }
                }
            }
            if (mode[rank] != Receive.LATE) {
                System.arraycopy(done, 0, got, 0, mine.size());
                for (int i = 0; i < mine.size(); i++) {
                    got[i] = racedDone[i] != null ? racedDone[i] : got[i];
                }
            }
            if (nullIn[rank] != null) {
                Status s = fromNull != null ? fromNull : done[nullAt];
                if (s == null || s.getSource() != MPI.PROC_NULL || s.getTag() != MPI.ANY_TAG
                        || s.getCount(nullType.type()) != 0) {
                    throw new AssertionError(at + ": a receive from PROC_NULL (" + mode[rank] + ") has status "
                            + (s == null ? "none" : "source " + s.getSource() + " tag " + s.getTag() + " count "
                            + s.getCount(nullType.type())) + ", expected PROC_NULL, ANY_TAG, 0");
                }
            }
            // The receives in posting order with their statuses and buffers: a cancelled one is left out (its buffer
            // keeps every byte) and its replacement, posted after all others, comes last.
            List<Integer> order = new ArrayList<>();
            List<Status> statuses = new ArrayList<>();
            List<RandomCall.Arg> into = new ArrayList<>();
            List<Integer> replacing = new ArrayList<>();
            for (int i = 0; i < mine.size(); i++) {
                if (replacement[i] == null) {
                    order.add(mine.get(i));
                    statuses.add(got[i]);
                    into.add(recv[mine.get(i)]);
                } else {
                    replacing.add(i);
                }
            }
            for (int i : replacing) {
                order.add(mine.get(i));
                statuses.add(got[i]);
                into.add(replacement[i]);
            }
            // Which message each receive got, from its status, in posting order; then the bytes it must hold.
            boolean[] taken = new boolean[n];
            StringBuilder account = new StringBuilder();
            for (int i = 0; i < order.size(); i++) {
                int k = order.get(i);
                Status s = statuses.get(i);
                boolean freed = freedRecv >= 0 && k == mine.get(freedRecv);
                if (s == null && !freed) {
                    throw new AssertionError(at + ": no status for the receive posted for message " + k);
                }
                // A freed receive has no status: it names source and tag, and takes the first message of them left.
                int j = freed ? matched(msgs, taken, rank, msgs[k].from, msgs[k].tag)
                        : matched(msgs, taken, rank, s.getSource(), s.getTag());
                if (j < 0) {
                    throw new AssertionError(at + ": the receive posted for message " + k + " " + msgs[k]
                            + " reports source " + s.getSource() + " tag " + s.getTag() + ", which no message left has");
                }
                taken[j] = true;
                Msg m = msgs[j];
                account.append("; receive for message ").append(k).append(" (").append(mode[rank]).append(", ")
                        .append(capacity[k]).append(" x ").append(recvType[k]).append(" from ").append(source(msgs[k], wild))
                        .append(" tag ").append(tag(msgs[k], wild)).append(") got message ").append(j).append(' ')
                        .append(m);
                byte[] data = send[j].packed(m.from, 0, m.count);
                expectLeaves(into.get(i), m.leaves(), data);
                if (freed) {
                    account.append(" (freed in flight)");
                    continue;
                }
                checkCounts(at + ": receive for message " + k + " got message " + j + " " + m, s, m.leaves(),
                        recvType[k], p);
            }
            try {
                c.check();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + " (buffer 2k is message k's send buffer, 2k + 1 the"
                        + " receive posted for it" + account + ")", e);
            }
        }
        for (Prequest q : recvInits) {
            q.free();
        }
        for (Prequest q : new Prequest[] {nullRecvInit, nullSendInit, strayInit}) {
            if (q != null) {
                q.free();
            }
        }
        for (Prequest q : sendInits) {
            if (q != null) {
                q.free();
            }
        }
    }

    /** The tag of the receives that no message matches (messages have tags 0..2, PROC_NULL's 3). */
    private static final int STRAY_TAG = 7;

    /**
     * Free of a started persistent receive whose wait must still deliver its elements (a heap buffer): refused with
     * {@code MPI.ERR_REQUEST}, the request left active (decision 0185). Called before any message of the round is
     * sent, so the round cannot have finished.
     */
    private static void refusedFree(Prequest r, String where) {
        try {
            r.free();
        } catch (MPIException e) {
            if (e.getErrorClass() != MPI.ERR_REQUEST || r.isNull()) {
                throw new AssertionError(where + ": free of a started persistent receive into a heap buffer: error"
                        + " class " + e.getErrorClass() + ", request " + (r.isNull() ? "null" : "active"), e);
            }
            return;
        }
        throw new AssertionError(where + ": free of a started persistent receive into a heap buffer was accepted;"
                + " expected MPI.ERR_REQUEST (its wait delivers its elements)");
    }

    /**
     * Free of a started persistent receive that lands in place: accepted, the handle null at once, the round left to
     * finish alone (decision 0185); its message and buffer are checked after the step's closing barrier.
     */
    private static void freeStarted(Prequest r, String where) throws MPIException {
        try {
            r.free();
        } catch (MPIException e) {
            throw new AssertionError(where + ": free of a started persistent receive that lands in place was refused"
                    + " (error class " + e.getErrorClass() + "); it finishes alone", e);
        }
        if (!r.isNull()) {
            throw new AssertionError(where + ": a started persistent receive is not null after free");
        }
        RandomCoverage.count("free of a started recvInit that lands in place (finishes alone)");
    }

    /**
     * Whether railcoll receives into this rank's buffer of {@code b} as it is (its wait has nothing to copy): a type
     * whose leaves lie back to back from its origin, its extent their size, in a direct buffer or one over a
     * {@code byte[]} (a {@code boolean[]}'s bytes are copied).
     */
    private static boolean landsInPlace(RandomCall.Arg b, int rank) {
        RandomTypes.Model m = b.m;
        RandomBuffers.Kind kind = b.kind(rank);
        if (kind != RandomBuffers.Kind.DIRECT && !(kind == RandomBuffers.Kind.SLICE
                && m.storage() == RandomTypes.Prim.BYTE)) {
            return false;
        }
        long[] leaves = m.leafOffsets();
        int w = m.prim().width;
        for (int i = 0; i < leaves.length; i++) {
            if (leaves[i] != (long) i * w) {
                return false;
            }
        }
        return m.lb() == 0 && m.extent() == (long) leaves.length * w;
    }

    private static int source(Msg m, int[] wild) {
        return (wild[m.to] & 1) != 0 ? MPI.ANY_SOURCE : m.from;
    }

    private static int tag(Msg m, int[] wild) {
        return (wild[m.to] & 2) != 0 ? MPI.ANY_TAG : m.tag;
    }

    /** Message k by its send call; the request to complete, null for a finished blocking send. */
    private static Request send(Intracomm comm, Msg m, RandomCall.Arg b, Prequest init) throws MPIException {
        Datatype t = m.type.type();
        switch (m.form) {
            case "send" -> comm.send(b.passed(), m.count, t, m.to, m.tag);
            case "sSend" -> comm.sSend(b.passed(), m.count, t, m.to, m.tag);
            case "rSend" -> comm.rSend(b.passed(), m.count, t, m.to, m.tag);
            case "bSend" -> comm.bSend(b.passed(), m.count, t, m.to, m.tag);
            case "iSend" -> {
                return comm.iSend(b.direct(), m.count, t, m.to, m.tag);
            }
            case "isSend" -> {
                return comm.isSend(b.direct(), m.count, t, m.to, m.tag);
            }
            case "irSend" -> {
                return comm.irSend(b.direct(), m.count, t, m.to, m.tag);
            }
            case "ibSend" -> {
                return comm.ibSend(b.direct(), m.count, t, m.to, m.tag);
            }
            default -> {
                init.start();
                return init;
            }
        }
        return null;
    }

    /** A blocking receive after the sends, some after a probe (then of the probed source and tag). */
    private static Status late(Intracomm comm, Msg m, int[] wild, int how, RandomCall.Arg b, int capacity,
                               RandomTypes.Model t, SplittableRandom own, String where) throws MPIException {
        int source = source(m, wild);
        int tag = tag(m, wild);
        if (how == 0) {
            return comm.recv(b.passed(), capacity, t.type(), source, tag);
        }
        Status probed;
        if (how >= 3) {
            Message bound = new Message();
            if (how == 3) {
                probed = bound.mProbe(source, tag, comm);
            } else {
                long until = System.nanoTime() + 60_000_000_000L;
                while ((probed = bound.imProbe(source, tag, comm)) == null) {
                    if (System.nanoTime() > until) {
                        throw new AssertionError(where + ": imProbe(" + source + ", " + tag + ") found nothing in 60 s");
                    }
                    Thread.onSpinWait();
                }
            }
            Status s;
            if (how == 3) {
                s = bound.mRecv(b.passed(), capacity, t.type());
            } else {
                Request q = bound.imRecv(b.direct(), capacity, t.type());
                if (own.nextInt(3) == 0) {
                    // Cancel of a matched-probe receive (decision 0228): its message was matched by the probe, so the
                    // cancel comes too late (as Open MPI's, which cancels no matched receive) and the receive
                    // completes; or, cancelled, the message was not taken and a receive of its envelope gets it.
                    q.cancel();
                    s = q.waitStatus();
                    RandomCoverage.count("cancel of an imRecv: " + (s.isCancelled() ? "cancelled" : "too late"));
                    if (s.isCancelled()) {
                        s = comm.recv(b.passed(), capacity, t.type(), probed.getSource(), probed.getTag());
                    }
                } else {
                    s = q.waitStatus();
                }
            }
            if (s.getSource() != probed.getSource() || s.getTag() != probed.getTag()
                    || s.getCount(MPI.BYTE) != probed.getCount(MPI.BYTE)) {
                throw new AssertionError(where + ": the matched probe said source " + probed.getSource() + " tag "
                        + probed.getTag() + " bytes " + probed.getCount(MPI.BYTE) + ", its receive got source "
                        + s.getSource() + " tag " + s.getTag() + " bytes " + s.getCount(MPI.BYTE));
            }
            return s;
        }
        if (how == 1) {
            probed = comm.probe(source, tag);
        } else {
            long until = System.nanoTime() + 60_000_000_000L;
            while ((probed = comm.iProbe(source, tag)) == null) {
                if (System.nanoTime() > until) {
                    throw new AssertionError(where + ": iProbe(" + source + ", " + tag + ") found nothing in 60 s");
                }
                Thread.onSpinWait();
            }
        }
        Status s = comm.recv(b.passed(), capacity, t.type(), probed.getSource(), probed.getTag());
        if (s.getSource() != probed.getSource() || s.getTag() != probed.getTag()
                || s.getCount(MPI.BYTE) != probed.getCount(MPI.BYTE)
                || s.getElements(t.type()) != probed.getElements(t.type())) {
            throw new AssertionError(where + ": probe said source " + probed.getSource() + " tag " + probed.getTag()
                    + " bytes " + probed.getCount(MPI.BYTE) + ", the receive of that source and tag got source "
                    + s.getSource() + " tag " + s.getTag() + " bytes " + s.getCount(MPI.BYTE));
        }
        return s;
    }

    /** The first message not yet taken from {@code source} to {@code to} with {@code tag} (MPI's non-overtaking rule). */
    private static int matched(Msg[] msgs, boolean[] taken, int to, int source, int tag) {
        for (int j = 0; j < msgs.length; j++) {
            if (!taken[j] && msgs[j].to == to && msgs[j].from == source && msgs[j].tag == tag) {
                return j;
            }
        }
        return -1;
    }

    /** {@code leaves} packed leaves into the receive buffer's elements in type-map order, the last element maybe in part. */
    static void expectLeaves(RandomCall.Arg r, long leaves, byte[] data) {
        long l = r.m.leaves();
        if (leaves == 0) {
            return;
        }
        long whole = leaves / l;
        r.expect(0, whole, data, 0);
        long rest = leaves % l;
        if (rest > 0) {
            r.passed();
            int w = r.m.prim().width;
            for (int i = 0; i < rest; i++) {
                int to = Math.toIntExact(r.buf.origin + whole * r.m.extent() + r.m.leafOffsets()[i]);
                int from = Math.toIntExact((whole * l + i) * w);
                for (int j = 0; j < w; j++) {
                    r.expected[to + j] = data[from + j] & 0xFF;
                }
            }
        }
    }

    /** The status's counts: whole elements of the receive type or UNDEFINED, primitives, bytes. */
    static void checkCounts(String where, Status s, long leaves, RandomTypes.Model t, RandomTypes.Prim p)
            throws MPIException {
        long l = t.leaves();
        int count = leaves % l == 0 ? Math.toIntExact(leaves / l) : MPI.UNDEFINED;
        int[] want;
        int[] have;
        if (t.signature() != null) { // leaves are bytes: the primitives from the signature, whole elements then a prefix
            String[] sig = t.signature().split(" ");
            long elements = leaves / l * sig.length;
            long rest = leaves % l;
            for (int i = 0; rest > 0; i++) {
                rest -= RandomTypes.Prim.valueOf(sig[i]).width;
                elements++;
            }
            want = new int[] {count, Math.toIntExact(elements), Math.toIntExact(leaves)};
            have = new int[] {s.getCount(t.type()), s.getElements(t.type()), s.getCount(MPI.BYTE)};
        } else {
            want = new int[] {count, Math.toIntExact(leaves), Math.toIntExact(leaves), Math.toIntExact(leaves * p.width)};
            have = new int[] {s.getCount(t.type()), s.getElements(t.type()), s.getCount(p.type()), s.getCount(MPI.BYTE)};
        }
        if (!Arrays.equals(want, have)) {
            throw new AssertionError(where + ": status (source " + s.getSource() + ", tag " + s.getTag()
                    + ") getCount(" + t + "), getElements(it), getCount(" + p + "), getCount(BYTE): "
                    + Arrays.toString(have) + ", expected " + Arrays.toString(want));
        }
    }
}
