package io.railcoll.systemtest;

import io.railcoll.launcher.testbed.NetnsTestbed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Flaps the rails of a running job's testbed (one rank per node): sets one rail of a node down (sometimes the same
 * rail of a second node with it), waits until every lane it cut is given up (the ranks' stderr WARNING lines) or only
 * a drawn short time, sets it up again, waits until every lane that was given up is back and the log has been quiet
 * for a while, pauses a drawn time, and goes on with another node and rail; or, one time in four, goes on at once
 * (within 1.5 rail time-outs) with the same rail, while lanes may still be given up or dialled again. Every draw comes from one seeded
 * generator, so a seed names a schedule of flaps; where the flaps fall in the job's loop still depends on timing.
 * Never are all rails of a node down at once, and two nodes are down together only on the same rail, so every pair
 * of ranks keeps a live rail: a job that fails under it has met a bug, not the test.
 *
 * <p>Runs on the test's action thread; {@link #timeline()} and {@link #problem()} may be read once it returned.
 */
final class RailFlapper {
    private static final Pattern LANE_LINE = Pattern.compile(
            "rank (\\d+): rail (\\d+)(?: \\(connection (\\d+)\\))? to rank (\\d+) (failed|is back)");
    /** How long every given-up lane may take to be back after the rail is up again. */
    private static final long BACK_WITHIN_MS = 45_000;
    /** How long to wait for the give-ups the flap is meant to see before setting the rail up anyway. */
    private static final long GIVEN_UP_WITHIN_MS = 15_000;

    private final NetnsTestbed testbed;
    private final Supplier<String> stderr;
    private final SplittableRandom draws;
    private final int nodes;
    private final int connectionsPerRail;
    private final long railTimeoutMs;
    private final long t0 = System.nanoTime();
    private final StringBuilder timeline = new StringBuilder();
    private volatile String problem;
    private int flapsDone;

    RailFlapper(NetnsTestbed testbed, Supplier<String> stderr, long seed, int nodes, int connectionsPerRail,
                long railTimeoutMs) {
        this.testbed = testbed;
        this.stderr = stderr;
        this.draws = new SplittableRandom(seed);
        this.nodes = nodes;
        this.connectionsPerRail = connectionsPerRail;
        this.railTimeoutMs = railTimeoutMs;
    }

    /** Runs {@code flaps} flaps, stopping early at the first problem (a lane not back in time). */
    void flap(int flaps) throws InterruptedException {
        int sameRail = -1;
        for (int f = 0; f < flaps && problem == null; f++) {
            int rail = sameRail >= 0 ? sameRail : draws.nextInt(2);
            List<Integer> down = new ArrayList<>();
            down.add(draws.nextInt(nodes));
            if (nodes >= 3 && draws.nextInt(4) == 0) {
                int other = (down.getFirst() + 1 + draws.nextInt(nodes - 1)) % nodes;
                down.add(other);
            }
            boolean untilGivenUp = draws.nextBoolean();
            long shortMs = 20 + draws.nextLong(2 * railTimeoutMs);
            long gapMs = draws.nextLong(800);
            for (int node : down) {
                testbed.setRailDown(node, rail);
            }
            note("flap " + f + ": rail " + rail + " of node(s) " + down + " down");
            if (untilGivenUp) {
                List<String> missing = awaitGivenUp(down, rail);
                note(missing.isEmpty() ? "every lane cut was given up" : "set up before these gave up: " + missing);
            } else {
                Thread.sleep(shortMs);
                note("after " + shortMs + " ms");
            }
            for (int node : down) {
                testbed.setRailUp(node, rail);
            }
            note("rail " + rail + " of node(s) " + down + " up");
            if (f < flaps - 1 && draws.nextInt(4) == 0) {
                // Sometimes the next flap comes while lanes are still being given up or dialled again: on the same
                // rail, so every pair keeps the other one.
                sameRail = rail;
                long soonMs = draws.nextLong(3 * railTimeoutMs / 2);
                note("next flap in " + soonMs + " ms, same rail, without waiting for the lanes");
                flapsDone++;
                Thread.sleep(soonMs);
                continue;
            }
            sameRail = -1;
            List<String> notBack = awaitQuiet();
            if (!notBack.isEmpty()) {
                problem = "flap " + f + ": lanes not back within " + BACK_WITHIN_MS + " ms of the rail coming up: " + notBack;
                note(problem);
                return;
            }
            note("every lane up, log quiet; next in " + gapMs + " ms");
            flapsDone++;
            Thread.sleep(gapMs);
        }
    }

    int flapsDone() {
        return flapsDone;
    }

    /** What was done when, in ms since the flapper was made. */
    String timeline() {
        return timeline.toString();
    }

    /** Null, or why flapping stopped early (a lane that did not come back). */
    String problem() {
        return problem;
    }

    private void note(String what) {
        timeline.append(String.format("%8d ms  %s%n", (System.nanoTime() - t0) / 1_000_000, what));
    }

    /** The lanes (both sides) that {@code down} on {@code rail} cut and that are not given up after a while. */
    private List<String> awaitGivenUp(List<Integer> down, int rail) throws InterruptedException {
        long end = System.nanoTime() + GIVEN_UP_WITHIN_MS * 1_000_000;
        List<String> missing;
        do {
            Map<String, Boolean> up = laneStates();
            missing = new ArrayList<>();
            for (int a : down) {
                for (int b = 0; b < nodes; b++) {
                    if (b == a) {
                        continue;
                    }
                    for (int c = 0; c < connectionsPerRail; c++) {
                        for (String lane : List.of(lane(a, rail, c, b), lane(b, rail, c, a))) {
                            if (up.getOrDefault(lane, true)) {
                                missing.add(lane);
                            }
                        }
                    }
                }
            }
            if (missing.isEmpty()) {
                return missing;
            }
            Thread.sleep(50);
        } while (System.nanoTime() - end < 0);
        return missing;
    }

    /**
     * Waits until every lane the log says failed is back and no lane line came for twice the rail time-out (a lane
     * may still be given up a little after its rail came up: TCP's retransmission back-off); the lanes still down
     * if that does not happen in time.
     */
    private List<String> awaitQuiet() throws InterruptedException {
        long end = System.nanoTime() + BACK_WITHIN_MS * 1_000_000;
        int lastCount = -1;
        long quietSince = System.nanoTime();
        while (true) {
            String text = stderr.get();
            int count = countLaneLines(text);
            if (count != lastCount) {
                lastCount = count;
                quietSince = System.nanoTime();
            }
            List<String> down = new ArrayList<>();
            laneStates(text).forEach((lane, up) -> {
                if (!up) {
                    down.add(lane);
                }
            });
            if (down.isEmpty() && System.nanoTime() - quietSince > 2 * railTimeoutMs * 1_000_000) {
                return down;
            }
            if (System.nanoTime() - end > 0) {
                return down.isEmpty() ? List.of("(log never quiet)") : down;
            }
            Thread.sleep(50);
        }
    }

    private static String lane(int rank, int rail, int connection, int peer) {
        return "rank " + rank + " rail " + rail + " connection " + connection + " to rank " + peer;
    }

    private Map<String, Boolean> laneStates() {
        return laneStates(stderr.get());
    }

    /** Each lane named in the log, by the side that logged it: up (its last line says back) or not. */
    private static Map<String, Boolean> laneStates(String text) {
        Map<String, Boolean> up = new HashMap<>();
        Matcher m = LANE_LINE.matcher(text);
        while (m.find()) {
            int connection = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
            up.put(lane(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), connection,
                    Integer.parseInt(m.group(4))), m.group(5).equals("is back"));
        }
        return up;
    }

    private static int countLaneLines(String text) {
        int n = 0;
        Matcher m = LANE_LINE.matcher(text);
        while (m.find()) {
            n++;
        }
        return n;
    }
}
