package io.railcoll.systemtest;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.topology.Placement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The check programs of {@link CollectivesSystemTest} (every collective x algorithm, byte for byte),
 * {@link AllreduceSystemTest} (all-reduce: every algorithm x type x operator x count against the sequential
 * reference), {@link ReductionSystemTest} (reduce, reduce-scatter, scan, exscan, scatter likewise),
 * {@link SubcommSystemTest} (every kind of sub-communicator, every collective) and {@link SmpDirectShmSystemTest}
 * where those classes ask for the same placement, rails and settings: one job per placement and rails runs them as
 * passes ({@link CheckPasses}), each with exactly the arguments its own job had, so that the 5 to 16 rank JVMs start
 * and warm up once, not once per class (decision 0082). Each pass is checked as its own job was: its summary line,
 * and its refusal count where it has one; a wrong result fails the job naming the pass and the case.
 */
class CheckJobsSystemTest {

    static Stream<Job> jobs() {
        return Stream.of(
                new Job("1x5", 1)
                        .collectives("sizes=0,1,7,1025,65537", "algorithms=all,auto", "roots=0,last,middle")
                        .allreduce("0,1,7,100003", "all")
                        .reductions("0,1,7,50021")
                        .subcomm(),
                new Job("3,4,2", 1)
                        .collectives("sizes=0,1,7,1025,65537", "algorithms=all,auto", "roots=0,last,middle")
                        .reductions("1,4099")
                        .subcomm(),
                new Job("3,4,2", 2)
                        .allreduce("0,1,7,30001", "all")
                        .reductions("0,1,7,30001")
                        .collectives(SmpDirectShmSystemTest.ARGS.toArray(String[]::new)),
                // On 16 ranks (decision 0121): each type with one operator and the non-commutative one; the 2-rail
                // row's all-reduce drops count 1, the 1-rail row's collectives count 1 and 1023.
                new Job("4x4", 2)
                        .collectives("sizes=0,1,7,1023,1025,65537", "algorithms=all,auto", "roots=0,last,middle")
                        .collectives(CollectivesSystemTest.LARGE_BY_DEFAULT.toArray(String[]::new))
                        .allreduce("0,7,30001", "sum,minloc,affine-compose"),
                new Job("4x4", 1)
                        .collectives("sizes=0,7,1025", "algorithms=all,auto", "roots=0,last,middle")
                        .allreduce("1,4099", "sum,minloc,affine-compose"),
                // Issue 22's other placements (decision 0244): five nodes of two (10 ranks: each type with one
                // operator and the non-commutative one, as on 16), and a rank alone, where every collective and
                // reduction is its own input.
                new Job("5x2", 1)
                        .allreduce("0,1,7,4099", "sum,minloc,affine-compose")
                        .reductions("0,1,7,4099"),
                new Job("1x1", 1)
                        .collectives("sizes=0,1,7,1025", "algorithms=all,auto", "roots=0")
                        .allreduce("0,1,7,4099", "all")
                        .reductions("0,1,7,4099")
                        .subcomm());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void everyPassOfTheJobChecksItsCases(Job job) {
        Placement p = Placement.parse(job.placement);
        List<String> args = new ArrayList<>();
        for (Pass pass : job.passes) {
            if (!args.isEmpty()) {
                args.add(CheckPasses.THEN);
            }
            args.add(pass.app);
            args.addAll(pass.args);
        }
        // Each pass keeps the deadline it had as a job of its own.
        Jobs.Outcome o = Jobs.run(p, job.rails, CheckPasses.class, args, Map.of(), Jobs.DEFAULT_JVM,
                Jobs.JOB_TIMEOUT.multipliedBy(job.passes.size())).assertSucceeded();
        List<List<String>> said = rankZeroLinesByPass(o.stdout());
        assertEquals(job.passes.size(), said.size(), "every pass started:\n" + o.stdout());
        for (int i = 0; i < job.passes.size(); i++) {
            Pass pass = job.passes.get(i);
            String summary = pass.summary();
            List<String> lines = said.get(i).stream().filter(l -> l.startsWith(summary)).toList();
            assertEquals(1, lines.size(), "pass " + (i + 1) + " (" + pass + ") prints one '" + summary + "' line:\n"
                    + o.stdout());
            String expected = pass.refusals(p);
            assertTrue(expected == null || lines.getFirst().contains(expected), "pass " + (i + 1) + " (" + pass + "): '"
                    + lines.getFirst() + "' must say '" + expected + "'\n" + o.stdout());
            said.get(i).stream().filter(l -> l.startsWith("ALLREDUCE-TIME ")).forEach(System.out::println);
        }
        System.out.println("job " + job + ": " + o.elapsedMs() + " ms");
    }

    /** Rank 0's lines (without the launcher's prefix), split at each {@code PASS i:} line. */
    private static List<List<String>> rankZeroLinesByPass(String stdout) {
        List<List<String>> passes = new ArrayList<>();
        for (String line : stdout.lines().filter(l -> l.startsWith("[r0] ")).map(l -> l.substring(5)).toList()) {
            if (line.startsWith("PASS ")) {
                passes.add(new ArrayList<>());
            } else if (!passes.isEmpty()) {
                passes.getLast().add(line);
            }
        }
        return passes;
    }

    /** One check program's run in a job: {@link CheckPasses}' name for it and its arguments. */
    record Pass(String app, List<String> args) {
        /** The line that rank 0 prints when the pass has checked every case. */
        String summary() {
            return switch (app) {
                case "collectives" -> "CHECKED ";
                case "allreduce" -> "ALLREDUCE-CHECKED ";
                case "reductions" -> "REDUCTIONS-CHECKED ";
                case "subcomm" -> "SUBCOMM-CHECKED ";
                default -> throw new IllegalArgumentException(app);
            };
        }

        /**
         * What the summary must say of refused cases, or null. The all-reduce algorithms that combine out of rank
         * order (the ring, the SMP-aware ones) refuse the non-commutative operator once per count, the reduce-scatter
         * ring likewise, where there is more than one rank to put out of order.
         */
        String refusals(Placement p) {
            return switch (app) {
                case "allreduce" -> " cases, " + refusing(Collective.ALLREDUCE, p) * counts() + " refused, ";
                case "reductions" -> " cases, " + Stream.of(Collective.REDUCE, Collective.REDUCE_SCATTER,
                        Collective.SCAN, Collective.EXSCAN).mapToLong(c -> refusing(c, p)).sum() * counts()
                        + " refused, ";
                default -> null;
            };
        }

        /** The algorithms of {@code c} the pass checks on {@code p} that refuse a non-commutative operator. */
        private static long refusing(Collective c, Placement p) {
            return AlgorithmCatalog.standard().forCollective(c).stream()
                    .filter(a -> !a.deterministic())
                    .filter(a -> a.unsupportedReason(Shape.reduction(c, p, 1, 8, 0, 8, true)).isEmpty())
                    .filter(a -> RankOrder.refusesNonCommutative(a.id(), c, p))
                    .count();
        }

        private int counts() {
            return args.stream().filter(a -> a.startsWith("counts=")).findFirst().orElseThrow()
                    .split("=")[1].split(",").length;
        }

        @Override
        public String toString() {
            return String.join(" ", app, String.join(" ", args)).trim();
        }
    }

    /** A placement and number of rails, and the passes its one job runs in turn. */
    static final class Job {
        final String placement;
        final int rails;
        final List<Pass> passes = new ArrayList<>();

        Job(String placement, int rails) {
            this.placement = placement;
            this.rails = rails;
        }

        Job collectives(String... args) {
            passes.add(new Pass("collectives", List.of(args)));
            return this;
        }

        Job allreduce(String counts, String ops) {
            List<String> args = new ArrayList<>(List.of("counts=" + counts, "algorithms=all,auto"));
            if (!ops.equals("all")) {
                args.add("ops=" + ops);
            }
            passes.add(new Pass("allreduce", args));
            return this;
        }

        Job reductions(String counts) {
            passes.add(new Pass("reductions", List.of("counts=" + counts)));
            return this;
        }

        Job subcomm() {
            passes.add(new Pass("subcomm", List.of()));
            return this;
        }

        @Override
        public String toString() {
            return placement + ", " + rails + " rail" + (rails == 1 ? "" : "s") + ": "
                    + String.join(", then ", passes.stream().map(Pass::app).toList());
        }
    }
}
