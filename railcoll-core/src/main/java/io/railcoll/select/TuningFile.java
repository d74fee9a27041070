package io.railcoll.select;

import io.railcoll.algorithm.AlgorithmCatalog;
import io.railcoll.schedule.Algorithm;
import io.railcoll.schedule.Collective;
import io.railcoll.schedule.Shape;
import io.railcoll.sim.CostModel;
import io.railcoll.sim.CpuScope;
import io.railcoll.sim.LinkClass;
import io.railcoll.sim.LinkCost;
import io.railcoll.sim.RailLimit;
import io.railcoll.topology.Placement;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads, checks and writes tuning files: {@code java.util.Properties} text (the JDK's own parser, so the core keeps
 * no runtime dependency), version 1, described in {@code docs/selection.md}:
 * <pre>
 *   railcoll.tuning.version = 1
 *   measured.placement = 4x4                      # free text about where it was measured
 *   model.rail.alpha-ns = 30000                   # Hockney per link class (shm, rail, mcast)
 *   model.rail.ns-per-byte = 0.25
 *   model.rail.cpu-fraction = 0.9                 # optional, default 0
 *   model.copy.ns-per-byte = 0.1                  # optional, default 0
 *   model.reduce.ns-per-byte = 0.2                # optional, default CostModel.DEFAULT_REDUCE_NS_PER_BYTE
 *   model.stripe-threshold-bytes = 1024           # optional, default 1024
 *   model.shm.streams-per-node = 2                # optional, default 0 (no limit)
 *   model.cpu.cores = 2                           # optional, default 0 (a core per rank)
 *   model.cpu.scope = host                        # optional: node (default) or host
 *   model.rail.rate-ns-per-byte = 4               # optional, with the next: a token bucket on every rail
 *   model.rail.burst-bytes = 250000
 *   rule.allgather.10 = allgather.gather-bcast if size=..256 nodes=4 ranks-per-node=4
 * </pre>
 * Every key must be one of these (a typo is an error, not a silent default). A rule is
 * {@code rule.<collective>.<order> = <algorithm id> [if <condition>...]} with conditions {@code size=}, {@code ranks=},
 * {@code nodes=}, {@code ranks-per-node=}, {@code ports=} over {@link Range}s, and {@code processors=own} (every rank
 * of the job has a processor of its own) or {@code processors=shared} (some node's ranks outnumber its processors;
 * on an emulated cluster, the host's ranks its processors), a fact every rank settles alike at start-up
 * ({@link Processors}, decision 0196); rules of a collective are tried by increasing order. A rule whose algorithm cannot run some shape it covers is rejected here, naming the line: the
 * check runs the algorithm's {@link Algorithm#unsupportedReason} on sample shapes of the rule's ranges (each range's
 * ends and a middle value, uniform placements, root 0, two groups), since no check can try every shape. Stateless.
 */
public final class TuningFile {
    public static final int VERSION = 1;
    public static final String VERSION_KEY = "railcoll.tuning.version";
    /** The built-in table, a resource beside this class, measured on the default emulated cluster. */
    static final String BUILT_IN = "default-tuning.properties";
    /** The engine's default (Config.DEFAULT_STRIPE_THRESHOLD; select does not import the API root). */
    static final long DEFAULT_STRIPE_THRESHOLD = 1024;
    /** Master groups per node used when checking rules (the configuration's default, RAILCOLL_GROUPS). */
    static final int CHECK_GROUPS = 2;

    private static final Pattern RULE_KEY = Pattern.compile("rule\\.([a-z]+(?:-[a-z]+)*)\\.(\\d{1,9})");
    private static final List<String> LINK_FIELDS = List.of("alpha-ns", "ns-per-byte", "cpu-fraction");
    private static final String RATE_KEY = "model.rail.rate-ns-per-byte";
    private static final String BURST_KEY = "model.rail.burst-bytes";
    private static final Set<String> MODEL_KEYS = modelKeys();
    private static volatile Tuning builtIn;

    private TuningFile() {
    }

    private static Set<String> modelKeys() {
        Set<String> keys = new LinkedHashSet<>();
        for (LinkClass c : LinkClass.values()) {
            for (String f : LINK_FIELDS) {
                keys.add("model." + c.key() + "." + f);
            }
        }
        keys.addAll(List.of("model.copy.ns-per-byte", "model.reduce.ns-per-byte", "model.stripe-threshold-bytes", "model.shm.streams-per-node",
                "model.cpu.cores", "model.cpu.scope", RATE_KEY, BURST_KEY));
        return keys;
    }

    /** Reads and checks the file at {@code path}. */
    public static Tuning load(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TuningFileException("cannot read tuning file " + path + ": " + e.getMessage(), e);
        }
        return parse(text, path.toString());
    }

    /**
     * The built-in table (read once). Its rules are not run through the runnability check here: that check tries
     * every rule on sample shapes, about a tenth of a second of processor time in each rank's start-up, for a table
     * that ships in this jar and does not change after the build. {@code BuiltInTableTest} runs the full check on it.
     */
    public static Tuning builtIn() {
        Tuning t = builtIn;
        if (t == null) {
            t = parse(builtInText(), "built-in", false);
            builtIn = t;
        }
        return t;
    }

    /**
     * Parses and checks {@code text}.
     *
     * @param source names the text in errors and explanations (a path, or {@code built-in})
     * @throws TuningFileException naming the line of the first problem
     */
    public static Tuning parse(String text, String source) {
        return parse(text, source, true);
    }

    /** The built-in table's text (also for the test that runs the full check on it). */
    static String builtInText() {
        try (InputStream in = TuningFile.class.getResourceAsStream(BUILT_IN)) {
            if (in == null) {
                throw new IllegalStateException("the built-in tuning table " + BUILT_IN + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Tuning parse(String text, String source, boolean checkRunnable) {
        LineIndex lines = new LineIndex(text, source);
        Properties props = new Properties();
        try {
            props.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new TuningFileException(source + ": not a properties file: " + e.getMessage(), e);
        }
        Reader r = new Reader(props, lines, source);
        String version = r.required(VERSION_KEY);
        if (!version.equals(Integer.toString(VERSION))) {
            throw r.error(VERSION_KEY, "version " + version + "; this railcoll reads version " + VERSION);
        }
        Map<String, String> measured = new TreeMap<>();
        TreeMap<String, String> ruleValues = new TreeMap<>(Comparator.comparing(TuningFile::ruleOrder));
        for (String key : props.stringPropertyNames()) {
            if (key.startsWith("measured.")) {
                measured.put(key.substring("measured.".length()), props.getProperty(key).strip());
            } else if (key.startsWith("rule.")) {
                if (!RULE_KEY.matcher(key).matches()) {
                    throw r.error(key, "a rule key is rule.<collective>.<order>, e.g. rule.allgather.10");
                }
                ruleValues.put(key, props.getProperty(key));
            } else if (!key.equals(VERSION_KEY) && !MODEL_KEYS.contains(key)) {
                throw r.error(key, "unknown key; known: " + VERSION_KEY + ", measured.*, rule.<collective>.<order>, "
                        + String.join(", ", MODEL_KEYS));
            }
        }
        CostModel model = model(r);
        List<Rule> rules = new ArrayList<>();
        for (Map.Entry<String, String> e : ruleValues.entrySet()) {
            rules.add(rule(r, e.getKey(), e.getValue(), checkRunnable));
        }
        return new Tuning(model, rules, measured, source);
    }

    /** Orders rule keys by collective, then numerically by order. */
    private static String ruleOrder(String key) {
        Matcher m = RULE_KEY.matcher(key);
        if (!m.matches()) {
            return key;
        }
        return m.group(1) + "." + String.format(Locale.ROOT, "%010d", Long.parseLong(m.group(2)));
    }

    private static CostModel model(Reader r) {
        Map<LinkClass, LinkCost> links = new EnumMap<>(LinkClass.class);
        for (LinkClass c : LinkClass.values()) {
            String prefix = "model." + c.key() + ".";
            boolean any = LINK_FIELDS.stream().anyMatch(f -> r.has(prefix + f));
            if (!any && c == LinkClass.MULTICAST) {
                continue;
            }
            double alpha = r.number(prefix + "alpha-ns", null);
            double perByte = r.number(prefix + "ns-per-byte", null);
            double cpu = r.number(prefix + "cpu-fraction", 0.0);
            if (cpu > 1) {
                throw r.error(prefix + "cpu-fraction", "the processor share must be in [0, 1], got " + r.value(prefix + "cpu-fraction"));
            }
            try {
                links.put(c, new LinkCost(alpha, perByte, cpu));
            } catch (IllegalArgumentException e) {
                throw r.error(prefix + "alpha-ns", e.getMessage());
            }
        }
        double copy = r.number("model.copy.ns-per-byte", 0.0);
        double reduce = r.number("model.reduce.ns-per-byte", CostModel.DEFAULT_REDUCE_NS_PER_BYTE);
        long stripe = (long) r.number("model.stripe-threshold-bytes", (double) DEFAULT_STRIPE_THRESHOLD);
        int streams = (int) r.number("model.shm.streams-per-node", 0.0);
        double cores = r.number("model.cpu.cores", 0.0);
        CpuScope scope = CpuScope.NODE;
        if (r.has("model.cpu.scope")) {
            try {
                scope = CpuScope.fromKey(r.value("model.cpu.scope"));
            } catch (IllegalArgumentException e) {
                throw r.error("model.cpu.scope", e.getMessage());
            }
        }
        RailLimit limit = railLimit(r);
        try {
            return new CostModel(links, copy, stripe, streams, cores, scope, limit, reduce);
        } catch (IllegalArgumentException e) {
            throw new TuningFileException(r.source + ": " + e.getMessage());
        }
    }

    /** The rails' token bucket: both keys or neither. */
    private static RailLimit railLimit(Reader r) {
        if (!r.has(RATE_KEY) && !r.has(BURST_KEY)) {
            return null;
        }
        String missing = r.has(RATE_KEY) ? BURST_KEY : RATE_KEY;
        if (!r.has(missing)) {
            throw r.error(r.has(RATE_KEY) ? RATE_KEY : BURST_KEY, "a rail limit needs both " + RATE_KEY + " and "
                    + BURST_KEY + "; " + missing + " is missing");
        }
        double burst = r.number(BURST_KEY, null);
        if (burst != Math.rint(burst)) {
            throw r.error(BURST_KEY, "the burst is a whole number of bytes, got " + r.value(BURST_KEY));
        }
        try {
            return new RailLimit(r.number(RATE_KEY, null), (long) burst);
        } catch (IllegalArgumentException e) {
            throw r.error(RATE_KEY, e.getMessage());
        }
    }

    private static Rule rule(Reader r, String key, String value, boolean checkRunnable) {
        Matcher m = RULE_KEY.matcher(key);
        m.matches();
        Collective collective;
        try {
            collective = Collective.fromId(m.group(1));
        } catch (IllegalArgumentException e) {
            throw r.error(key, e.getMessage());
        }
        String[] words = value.strip().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) {
            throw r.error(key, "a rule names an algorithm: <algorithm id> [if size=A..B ...]");
        }
        Algorithm algorithm;
        try {
            algorithm = AlgorithmCatalog.standard().byId(words[0]);
        } catch (IllegalArgumentException e) {
            throw r.error(key, e.getMessage());
        }
        if (algorithm.collective() != collective) {
            throw r.error(key, "the rule is for " + collective.id() + " but " + algorithm.id() + " is a "
                    + algorithm.collective().id() + " algorithm");
        }
        Map<String, Range> conditions = new LinkedHashMap<>();
        Processors processors = Processors.ANY;
        if (words.length > 1) {
            if (!words[1].equals("if") || words.length == 2) {
                throw r.error(key, "expected 'if' and conditions after the algorithm, got '" + value.strip() + "'");
            }
            for (int i = 2; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                String name = eq < 0 ? words[i] : words[i].substring(0, eq);
                if (eq < 0 || !List.of("size", "ranks", "nodes", "ranks-per-node", "ports", "processors").contains(name)) {
                    throw r.error(key, "bad condition '" + words[i] + "'; conditions are size=, ranks=, nodes=, "
                            + "ranks-per-node=, ports= with a range such as 4, 1..64k, 4k.. or ..256, and processors="
                            + Processors.keys() + " (whether every rank has a processor of its own)");
                }
                if (name.equals("processors")) {
                    if (processors != Processors.ANY) {
                        throw r.error(key, "processors is given twice");
                    }
                    try {
                        processors = Processors.fromKey(words[i].substring(eq + 1));
                    } catch (IllegalArgumentException e) {
                        throw r.error(key, e.getMessage());
                    }
                    continue;
                }
                try {
                    if (conditions.put(name, Range.parse(words[i].substring(eq + 1))) != null) {
                        throw r.error(key, name + " is given twice");
                    }
                } catch (TuningFileException e) {
                    throw e;
                } catch (IllegalArgumentException e) {
                    throw r.error(key, e.getMessage());
                }
            }
        }
        Rule rule = new Rule(key, collective, conditions.getOrDefault("size", Range.ANY),
                conditions.getOrDefault("ranks", Range.ANY), conditions.getOrDefault("nodes", Range.ANY),
                conditions.getOrDefault("ranks-per-node", Range.ANY), conditions.getOrDefault("ports", Range.ANY),
                processors, algorithm.id(), r.where(key));
        if (checkRunnable) {
            checkRunnable(r, key, rule, algorithm);
        }
        return rule;
    }

    /** Rejects a rule whose algorithm cannot run a sample shape the rule covers. */
    private static void checkRunnable(Reader r, String key, Rule rule, Algorithm algorithm) {
        List<Placement> placements = new ArrayList<>();
        // Sample bounds: large enough to reach real restrictions, small enough that open-ended rules (size=1m..)
        // do not fail on buffers no job would allocate (16384 ranks of 1 GiB blocks is the corner).
        for (long nodes : samples(rule.nodes(), 1, 256)) {
            for (long perNode : samples(rule.ranksPerNode(), 1, 64)) {
                placements.add(Placement.uniform((int) nodes, (int) perNode));
            }
        }
        for (long ranks : samples(rule.ranks(), 1, 16384)) {
            placements.add(Placement.uniform((int) ranks, 1));
            placements.add(Placement.singleNode((int) ranks));
        }
        boolean covered = false;
        for (Placement p : placements) {
            for (long ports : samples(rule.ports(), 1, 8)) {
                for (long size : samples(rule.sizeBytes(), 0, 1L << 30)) {
                    Shape shape = new Shape(rule.collective(), p, (int) ports, size, 0, CHECK_GROUPS);
                    if (!rule.matches(shape)) {
                        continue;
                    }
                    covered = true;
                    Optional<String> why = algorithm.unsupportedReason(shape);
                    if (why.isPresent()) {
                        throw r.error(key, algorithm.id() + " cannot run a shape this rule covers (" + p.describe()
                                + ", k=" + ports + ", " + size + " B): " + why.get());
                    }
                }
            }
        }
        if (!covered) {
            throw r.error(key, "the rule covers none of the sample shapes (uniform placements of its nodes and "
                    + "ranks-per-node, or of its ranks); give nodes and ranks-per-node whose product lies in ranks");
        }
    }

    /** The ends of {@code range} clipped to [lo, hi] and their geometric middle; the low end when it is above hi. */
    static List<Long> samples(Range range, long lo, long hi) {
        long a = Math.max(range.min(), lo);
        if (a > hi) {
            return List.of(a);
        }
        long b = Math.min(range.max(), hi);
        Set<Long> out = new LinkedHashSet<>();
        out.add(a);
        out.add((long) Math.sqrt((double) Math.max(a, 1) * b));
        out.add(b);
        out.removeIf(v -> !range.contains(v));
        return List.copyOf(out);
    }

    /** The text of {@code tuning} in the documented layout; {@link #parse} reads it back to an equal tuning. */
    public static String format(Tuning tuning) {
        StringBuilder sb = new StringBuilder();
        sb.append("# railcoll tuning file, format version ").append(VERSION).append(" (docs/selection.md).\n");
        sb.append("# java.util.Properties syntax: key = value, lines starting with # are comments.\n");
        sb.append("# Select it with RAILCOLL_TUNING=<path>; without it railcoll uses its built-in table.\n");
        sb.append(VERSION_KEY).append(" = ").append(VERSION).append("\n\n");
        if (!tuning.measured().isEmpty()) {
            sb.append("# Where and how it was measured (informative only).\n");
            for (Map.Entry<String, String> e : new TreeMap<>(tuning.measured()).entrySet()) {
                // Backslashes are escapes in the format; a value keeps its own by doubling them.
                sb.append("measured.").append(e.getKey()).append(" = ")
                        .append(e.getValue().replace("\\", "\\\\").replace("\n", " ")).append('\n');
            }
            sb.append('\n');
        }
        CostModel m = tuning.model();
        sb.append("# Cost model, Hockney per link class (paper 000 section 3.2): an uncontended message of m bytes takes\n");
        sb.append("# alpha-ns + m * ns-per-byte; cpu-fraction of that is processor time, half at each end, the rest is\n");
        sb.append("# time on the link. shm: ranks of one node; rail: between nodes; mcast: multicast.\n");
        for (LinkClass c : LinkClass.values()) {
            LinkCost l = m.links().get(c);
            if (l != null) {
                sb.append("model.").append(c.key()).append(".alpha-ns = ").append(number(l.alphaNs())).append('\n');
                sb.append("model.").append(c.key()).append(".ns-per-byte = ").append(number(l.nsPerByte())).append('\n');
                sb.append("model.").append(c.key()).append(".cpu-fraction = ").append(number(l.cpuFraction())).append('\n');
            }
        }
        sb.append("# Processor time of a local copy, per byte.\n");
        sb.append("model.copy.ns-per-byte = ").append(number(m.copyNsPerByte())).append('\n');
        sb.append("# Processor time a reduction step spends per byte beyond a copy (gamma).\n");
        sb.append("model.reduce.ns-per-byte = ").append(number(m.reduceNsPerByte())).append('\n');
        sb.append("# Rail messages longer than this are split over all rails, as the engine does.\n");
        sb.append("model.stripe-threshold-bytes = ").append(m.stripeThresholdBytes()).append('\n');
        sb.append("# Shared-memory transfers a node carries at once at full speed (0: no limit).\n");
        sb.append("model.shm.streams-per-node = ").append(m.shmStreamsPerNode()).append('\n');
        sb.append("# Processor cores: per node (scope node) or for the whole job (scope host, an emulated cluster);\n");
        sb.append("# 0 gives every rank a core of its own.\n");
        sb.append("model.cpu.cores = ").append(number(m.cpuCores())).append('\n');
        sb.append("model.cpu.scope = ").append(m.cpuScope().key()).append('\n');
        m.rails().ifPresent(limit -> {
            sb.append("# Every rail's token bucket in each direction: sustained time per byte (8e9 / rate in bit/s) and\n");
            sb.append("# the bytes a full bucket lets through at the link's own speed.\n");
            sb.append(RATE_KEY).append(" = ").append(number(limit.nsPerByte())).append('\n');
            sb.append(BURST_KEY).append(" = ").append(limit.burstBytes()).append('\n');
        });
        sb.append('\n');
        sb.append("# Rules: rule.<collective>.<order> = <algorithm id> [if size=A..B ranks=A..B nodes=A..B\n");
        sb.append("# ranks-per-node=A..B ports=A..B processors=own|shared]; sizes are bytes per rank's block and may end\n");
        sb.append("# in k, m, g; processors=own: every rank of the job has a processor of its own, shared: some node's\n");
        sb.append("# ranks outnumber its processors (decision 0196). Within a collective, rules are tried by increasing\n");
        sb.append("# order; the first that matches and whose algorithm can run the shape wins. Without a matching rule\n");
        sb.append("# the model's cheapest algorithm runs.\n");
        for (Rule rule : tuning.rules()) {
            sb.append(rule.name()).append(" = ").append(rule.algorithmId());
            if (!rule.conditions().equals("always")) {
                sb.append(" if ").append(rule.conditions());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    public static void write(Tuning tuning, Path path) {
        try {
            Files.writeString(path, format(tuning), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write tuning file " + path, e);
        }
    }

    /** Six significant digits, plain notation: what a person can read and edit, and what parse reads back. */
    static String number(double v) {
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** Values by key, with errors that name the line. */
    private static final class Reader {
        final Properties props;
        final LineIndex lines;
        final String source;

        Reader(Properties props, LineIndex lines, String source) {
            this.props = props;
            this.lines = lines;
            this.source = source;
        }

        boolean has(String key) {
            return props.getProperty(key) != null;
        }

        String value(String key) {
            return props.getProperty(key).strip();
        }

        String required(String key) {
            if (!has(key)) {
                throw new TuningFileException(source + ": " + key + " is missing");
            }
            return value(key);
        }

        /** The number under {@code key}, or {@code dflt}; a missing key without default is an error. */
        double number(String key, Double dflt) {
            if (!has(key)) {
                if (dflt == null) {
                    throw new TuningFileException(source + ": " + key + " is missing");
                }
                return dflt;
            }
            try {
                double v = Double.parseDouble(value(key));
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw error(key, "expected a number >= 0, got '" + value(key) + "'");
            }
        }

        String where(String key) {
            int line = lines.lineOf(key);
            return line > 0 ? source + " line " + line : source;
        }

        TuningFileException error(String key, String message) {
            return new TuningFileException(where(key) + ": " + key + ": " + message);
        }
    }
}
