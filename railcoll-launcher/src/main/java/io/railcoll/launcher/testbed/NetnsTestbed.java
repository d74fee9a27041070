package io.railcoll.launcher.testbed;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An emulated cluster on this machine: one network namespace per node, joined by rate-limited rails.
 *
 * <pre>
 *  rc-TAG-n0                 rc-TAG-sw                    rc-TAG-n1
 *  rail0 198.18.0.1 ==veth== n0r0 -[br0]- n1r0 ==veth== rail0 198.18.0.2
 *  rail1 198.18.1.1 ==veth== n0r1 -[br1]- n1r1 ==veth== rail1 198.18.1.2
 * </pre>
 *
 * Rail {@code r} of node {@code n} is interface {@code rail<r>} with address {@code 198.18.r.(n+1)/24}
 * (the benchmarking range, RFC 2544). Bridges live in their own "switch" namespace, so nothing is added to
 * the host's namespace and no packet can leave the testbed. Each link is limited in both directions and
 * optionally impaired ({@link RailImpairment}: netem, or nftables where the kernel has no netem);
 * {@link RailShaping} says how and why. The multicast route 224.0.0.0/4
 * points at the spec's multicast rail, or is absent so that the multicast fail-over path can be tested.
 * IPv6 is off in every namespace so the rails carry only what the job sends.
 *
 * <p><b>Lifetime.</b> {@link #start} builds it all or nothing: on any failure it removes what it made
 * and throws, naming the failing command and its error. {@link #close} removes every namespace (which
 * deletes the veth links and bridges in it); it is idempotent, tolerates parts already gone and reports
 * real failures as one exception with the others suppressed. A JVM shutdown hook closes a testbed that
 * is still open when the JVM exits normally or on SIGTERM/SIGINT; after SIGKILL, a later
 * {@link #removeLeftovers} finds the namespaces by their owner's pid. Processes started inside the
 * namespaces (with {@link #commandPrefix}) belong to the caller, who must stop them before closing:
 * {@code close} reports any still running.
 *
 * <p><b>Threads.</b> All methods may be called from any thread; rail changes, counter reads and
 * {@code close} are serialized.
 * Needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) and iproute2; see {@link #available()}.
 */
public final class NetnsTestbed implements AutoCloseable {
    /** For {@link #removeLeftovers}: every testbed namespace whose owning JVM is gone. */
    public static final String ALL = "all";
    /** The one message for a user without the privileges. */
    public static final String NEEDS_ROOT = "--netns needs root (CAP_NET_ADMIN): run as root or drop --netns";

    static final String MULTICAST_ROUTE = "224.0.0.0/4";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_SYS_ADMIN = 21;
    private static final Pattern NFT_COUNTER = Pattern.compile("counter packets (\\d+) bytes \\d+ .*comment \"(\\w+)\"");
    private static final String NO_NETEM_HINT =
            "this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM is not set): drop --rail-netem";

    private final TestbedSpec spec;
    private final String tag;
    private final Tools tools;
    private final Shell shell;
    private final RailShaping shaping;
    private final Thread shutdownHook;
    /** Namespaces made so far, in creation order. Guarded by {@code this}. */
    private final List<String> created = new ArrayList<>();
    /** Guarded by {@code this}. */
    private boolean closed;

    /** Whether this kernel has netem: probed once per JVM, when first needed. Guarded by the class. */
    private static Boolean netemProbed;

    private final boolean withNetem;

    private NetnsTestbed(TestbedSpec spec, String tag, Tools tools, Shell shell, boolean withNetem) {
        this.spec = spec;
        this.tag = tag;
        this.tools = tools;
        this.shell = shell;
        this.withNetem = withNetem;
        this.shaping = new RailShaping(spec, withNetem);
        this.shutdownHook = Thread.ofPlatform().name("railcoll-testbed-cleanup-" + tag).unstarted(this::closeFromHook);
    }

    /** Whether a testbed can run here: Linux with network namespaces, root privileges, iproute2 and sysctl. */
    public static Availability available() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Availability.no("--netns needs Linux network namespaces; this is " + System.getProperty("os.name"));
        }
        if (!Files.exists(Path.of("/proc/self/ns/net"))) {
            return Availability.no("--netns needs a kernel with network namespaces (CONFIG_NET_NS)");
        }
        if (!hasNetworkAdmin(effectiveCapabilities())) {
            return Availability.no(NEEDS_ROOT);
        }
        try {
            Tools.find();
        } catch (TestbedException e) {
            return Availability.no(e.getMessage());
        }
        return Availability.yes();
    }

    /**
     * Builds the testbed the spec describes, all or nothing, under a fresh tag. The caller owns the result
     * and must {@link #close} it.
     *
     * @throws TestbedException if this machine cannot run it ({@link #available()}) or a step failed;
     *                          then nothing it made is left behind (or the suppressed exceptions say what is)
     */
    public static NetnsTestbed start(TestbedSpec spec) {
        Objects.requireNonNull(spec, "spec");
        Availability availability = available();
        if (!availability.available()) {
            throw new TestbedException(availability.reason());
        }
        Tools tools = Tools.find();
        boolean withNetem = spec.impairment() != null && netemSupported();
        if (spec.impairment() != null && !withNetem) {
            tools.requireNft(); // before anything is made
        }
        NetnsTestbed testbed = new NetnsTestbed(spec, NamespaceNames.newTag(), tools, new Shell(COMMAND_TIMEOUT), withNetem);
        // Registered before the first namespace exists, so even a start cut short by System.exit cleans up.
        Runtime.getRuntime().addShutdownHook(testbed.shutdownHook);
        try {
            testbed.build();
            return testbed;
        } catch (RuntimeException e) {
            List<Throwable> leftovers;
            synchronized (testbed) {
                testbed.closed = true;
                leftovers = testbed.teardown();
            }
            testbed.unregisterHook();
            TestbedException failure = new TestbedException("testbed " + testbed.tag + " (" + spec.nodes() + " nodes x "
                    + spec.rails() + " rails) did not start; "
                    + (leftovers.isEmpty() ? "everything it made was removed" : "removing what it made failed too (suppressed)")
                    + ": " + e.getMessage(), e);
            leftovers.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    /**
     * Removes testbed namespaces left by launchers that died (SIGKILL, power loss): with {@link #ALL}, every
     * {@code rc-} namespace whose owning JVM is no longer running; with a tag, every namespace of that tag,
     * running or not. Namespaces named otherwise are never touched.
     *
     * @return the namespaces removed
     * @throws TestbedException if one could not be removed (the others still are)
     */
    public static List<String> removeLeftovers(String tagOrAll) {
        Objects.requireNonNull(tagOrAll, "tagOrAll");
        boolean all = tagOrAll.equals(ALL);
        if (!all && !NamespaceNames.isTag(tagOrAll)) {
            throw new IllegalArgumentException("expected \"" + ALL + "\" or a testbed tag such as 1234-abc, got \"" + tagOrAll + "\"");
        }
        Availability availability = available();
        if (!availability.available()) {
            throw new TestbedException(availability.reason());
        }
        Shell shell = new Shell(COMMAND_TIMEOUT);
        Tools tools = Tools.find();
        List<String> removed = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (String namespace : namespaces(shell, tools)) {
            Optional<NamespaceNames.Owner> owner = NamespaceNames.parse(namespace);
            boolean match = owner.isPresent() && (all ? !owner.get().alive() : owner.get().tag().equals(tagOrAll));
            if (match) {
                Optional<Throwable> failure = deleteNamespace(shell, tools, namespace);
                if (failure.isEmpty()) {
                    removed.add(namespace);
                } else {
                    failures.add(failure.get());
                }
            }
        }
        if (!failures.isEmpty()) {
            TestbedException e = new TestbedException("could not remove every leftover testbed namespace: "
                    + failures.getFirst().getMessage());
            failures.forEach(e::addSuppressed);
            throw e;
        }
        return removed;
    }

    /**
     * Whether this kernel has netem (some minimal kernels, like this project's CI VM, build without it; the
     * rail impairment is then emulated, see {@link RailImpairment}). Tries it on the loopback of a scratch
     * namespace, which is removed again; once per JVM.
     */
    public static synchronized boolean netemSupported() {
        if (netemProbed == null) {
            netemProbed = probeNetem();
        }
        return netemProbed;
    }

    /**
     * Whether a testbed with a rail impairment can run here: one that {@link #available()} allows, and netem in
     * the kernel or {@code nft} to emulate it; otherwise why not (the message names the package to install).
     */
    public static Availability impairmentAvailable() {
        Availability availability = available();
        if (!availability.available()) {
            return availability;
        }
        if (netemSupported()) {
            return Availability.yes();
        }
        try {
            Tools.find().requireNft();
            return Availability.yes();
        } catch (TestbedException e) {
            return Availability.no(e.getMessage());
        }
    }

    private static boolean probeNetem() {
        if (!available().available()) {
            return false;
        }
        Shell shell = new Shell(COMMAND_TIMEOUT);
        Tools tools = Tools.find();
        String probe = NamespaceNames.probe(NamespaceNames.newTag());
        shell.run(List.of(tools.ip(), "netns", "add", probe));
        try {
            return shell.exec(List.of(tools.tc(), "-n", probe, "qdisc", "add", "dev", "lo", "root", "netem", "delay", "0ms")).ok();
        } finally {
            deleteNamespace(shell, tools, probe).ifPresent(e -> {
                throw new TestbedException("could not remove netem probe namespace " + probe, e);
            });
        }
    }

    public TestbedSpec spec() {
        return spec;
    }

    /** This job's tag: {@code <pid>-<nonce>}; every namespace is {@code rc-<tag>-...}. */
    public String tag() {
        return tag;
    }

    /** The namespace of {@code node}: {@code rc-<tag>-n<node>}. */
    public String nodeNamespace(int node) {
        checkNode(node);
        return NamespaceNames.node(tag, node);
    }

    /** The namespace holding the bridges: {@code rc-<tag>-sw}. */
    public String switchNamespace() {
        return NamespaceNames.switchNamespace(tag);
    }

    /** The interface of {@code rail} inside every node namespace: {@code rail<rail>}. */
    public static String railInterface(int rail) {
        return "rail" + rail;
    }

    /** Node {@code node}'s address on {@code rail}: 198.18.rail.(node+1). */
    public Inet4Address railAddress(int node, int rail) {
        checkNode(node);
        checkRail(rail);
        try {
            return (Inet4Address) InetAddress.getByAddress(new byte[] {(byte) 198, 18, (byte) rail, (byte) (node + 1)});
        } catch (UnknownHostException e) {
            throw new AssertionError("four bytes are always an address", e);
        }
    }

    /**
     * The command line prefix that runs a program inside {@code node}'s namespace:
     * {@code [/usr/sbin/ip, netns, exec, rc-<tag>-n<node>]}; append the program and its arguments. The
     * program shares the host's file system, so ranks of one node still share {@code /dev/shm}.
     */
    public List<String> commandPrefix(int node) {
        return List.of(tools.ip(), "netns", "exec", nodeNamespace(node));
    }

    /** Takes {@code node}'s interface on {@code rail} down: the rail fails for that node, in both directions. */
    public synchronized void setRailDown(int node, int rail) {
        requireOpen();
        checkRail(rail);
        shell.run(ip(nodeNamespace(node), "link", "set", "dev", railInterface(rail), "down"));
    }

    /**
     * Brings {@code node}'s interface on {@code rail} back up. The kernel deleted the multicast route with the
     * link, so on the multicast rail it is put back.
     */
    public synchronized void setRailUp(int node, int rail) {
        requireOpen();
        checkRail(rail);
        String namespace = nodeNamespace(node);
        shell.run(ip(namespace, "link", "set", "dev", railInterface(rail), "up"));
        if (Integer.valueOf(rail).equals(spec.multicastRail())) {
            shell.run(ip(namespace, "route", "replace", MULTICAST_ROUTE, "dev", railInterface(rail)));
        }
    }

    /** The qdisc counters at both ends of ({@code node}, {@code rail}). */
    public synchronized LinkStats linkStats(int node, int rail) {
        requireOpen();
        checkRail(rail);
        String fromNode = shell.run(List.of(tools.tc(), "-s", "-n", nodeNamespace(node), "qdisc", "show", "dev", railInterface(rail)));
        String toNode = shell.run(List.of(tools.tc(), "-s", "-n", switchNamespace(), "qdisc", "show", "dev", switchPort(node, rail)));
        return new LinkStats(node, rail, QdiscStats.parse(fromNode), QdiscStats.parse(toNode));
    }

    /** The counters of every link of {@code rail}, summed. */
    public synchronized RailStats railStats(int rail) {
        checkRail(rail);
        long sent = 0;
        long delivered = 0;
        long drops = 0;
        long limiterDrops = 0;
        for (int node = 0; node < spec.nodes(); node++) {
            LinkStats link = linkStats(node, rail);
            sent += link.bytesFromNode();
            delivered += link.bytesToNode();
            drops += link.drops();
            limiterDrops += link.limiterDrops();
        }
        return new RailStats(rail, sent, delivered, drops, limiterDrops);
    }

    /**
     * Removes every namespace of this testbed, and with them its links and bridges. Idempotent; parts
     * already gone are fine.
     *
     * @throws TestbedException if something could not be removed or processes were still inside (the
     *                          namespaces are removed anyway; such processes keep only a loopback)
     */
    @Override
    public void close() {
        List<Throwable> failures;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            failures = teardown();
        }
        unregisterHook();
        if (!failures.isEmpty()) {
            TestbedException e = new TestbedException("testbed " + tag + " was not removed cleanly: " + failures.getFirst().getMessage());
            failures.forEach(e::addSuppressed);
            throw e;
        }
    }

    @Override
    public String toString() {
        return "NetnsTestbed[" + tag + ", " + spec.nodes() + " nodes x " + spec.rails() + " rails, rate "
                + (spec.rate() == null ? "unlimited" : spec.rate()) + (spec.netem() == null ? "" : ", impairment " + spec.netem() + " by " + impairmentMethod()) + "]";
    }

    // ---- building ---------------------------------------------------------------------------------------

    private void build() {
        String sw = switchNamespace();
        addNamespace(sw);
        for (int rail = 0; rail < spec.rails(); rail++) {
            // No STP and no forwarding delay: a port forwards as soon as it is up. No multicast snooping:
            // nothing on the rails answers IGMP queries, and flooding is what a simple switch does anyway.
            shell.run(ip(sw, "link", "add", bridge(rail), "type", "bridge", "stp_state", "0", "forward_delay", "0",
                    "mcast_snooping", "0"));
            shell.run(ip(sw, "link", "set", "dev", bridge(rail), "up"));
        }
        for (int node = 0; node < spec.nodes(); node++) {
            String namespace = nodeNamespace(node);
            addNamespace(namespace);
            shell.run(ip(namespace, "link", "set", "dev", "lo", "up"));
        }
        for (int node = 0; node < spec.nodes(); node++) {
            for (int rail = 0; rail < spec.rails(); rail++) {
                link(node, rail);
            }
        }
        if (spec.multicastRail() != null) {
            for (int node = 0; node < spec.nodes(); node++) {
                shell.run(ip(nodeNamespace(node), "route", "add", MULTICAST_ROUTE, "dev", railInterface(spec.multicastRail())));
            }
        }
        if (spec.impairment() != null && !withNetem) {
            List<String> ports = new ArrayList<>();
            for (int node = 0; node < spec.nodes(); node++) {
                for (int rail = 0; rail < spec.rails(); rail++) {
                    ports.add(switchPort(node, rail));
                }
            }
            nft(sw, spec.impairment().nftScript(ports));
        }
    }

    /** Loads an nftables script into a namespace, as one transaction. */
    private void nft(String namespace, String script) {
        Path file;
        try {
            file = Files.createTempFile("railcoll-testbed-" + tag, ".nft");
        } catch (IOException e) {
            throw new TestbedException("cannot write the nftables rules for the rail impairment: " + e.getMessage(), e);
        }
        try {
            Files.writeString(file, script);
            shell.run(List.of(tools.ip(), "netns", "exec", namespace, tools.requireNft(), "-f", file.toString()));
        } catch (IOException e) {
            throw new TestbedException("cannot write the nftables rules for the rail impairment: " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a temporary file; nothing depends on it
            }
        }
    }

    /**
     * With the nftables emulation, how many packets each impairment hit so far, summed over every port of every
     * rail: keys {@code loss}, {@code corrupt}, {@code duplicate}, {@code reorder} (those in the spec). Empty with
     * netem (its counters do not tell the impairments apart) or without an impairment.
     */
    public synchronized Map<String, Long> impairmentCounts() {
        requireOpen();
        Map<String, Long> counts = new TreeMap<>();
        if (spec.impairment() == null || withNetem) {
            return counts;
        }
        String rules = shell.run(List.of(tools.ip(), "netns", "exec", switchNamespace(), tools.requireNft(), "list", "table",
                "netdev", RailImpairment.NFT_TABLE));
        Matcher m = NFT_COUNTER.matcher(rules);
        while (m.find()) {
            counts.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
        }
        return counts;
    }

    /** How this testbed makes its impairment: {@code "tc netem"}, {@code "nftables"}, or {@code "none"}. */
    public String impairmentMethod() {
        return spec.impairment() == null ? "none" : withNetem ? "tc netem" : "nftables";
    }

    /** Creates a namespace and records it; refuses once closed, so a shutdown during start leaks nothing. */
    private void addNamespace(String namespace) {
        synchronized (this) {
            if (closed) {
                throw new TestbedException("testbed " + tag + " was closed while starting");
            }
            shell.run(List.of(tools.ip(), "netns", "add", namespace));
            created.add(namespace);
        }
        // Set before any interface exists, so the "default" value covers the ones made later.
        shell.run(List.of(tools.ip(), "netns", "exec", namespace, tools.sysctl(), "-q", "-w",
                "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"));
    }

    private void link(int node, int rail) {
        String namespace = nodeNamespace(node);
        String sw = switchNamespace();
        String device = railInterface(rail);
        String port = switchPort(node, rail);
        String mtu = Integer.toString(spec.mtu());
        shell.run(ip(namespace, "link", "add", device, "mtu", mtu, "type", "veth", "peer", "name", port, "netns", sw, "mtu", mtu));
        shell.run(ip(sw, "link", "set", "dev", port, "master", bridge(rail), "up"));
        shell.run(ip(namespace, "addr", "add", railAddress(node, rail).getHostAddress() + "/24", "dev", device));
        shell.run(ip(namespace, "link", "set", "dev", device, "up"));
        for (List<String> command : shaping.nodeEnd(tools.tc(), namespace, device)) {
            tc(command);
        }
        for (List<String> command : shaping.switchEnd(tools.tc(), sw, port)) {
            tc(command);
        }
    }

    private void tc(List<String> command) {
        Shell.Result result = shell.exec(command);
        boolean noNetem = !result.ok() && RailShaping.isNetem(command) && result.stderr().contains("kind is unknown");
        Shell.check(result, noNetem ? NO_NETEM_HINT : null);
    }

    // ---- removing ---------------------------------------------------------------------------------------

    /** Deletes every recorded namespace, newest first; returns what went wrong. Caller holds the lock. */
    private List<Throwable> teardown() {
        List<Throwable> failures = new ArrayList<>();
        for (String namespace : created.reversed()) {
            try {
                Shell.Result pids = shell.exec(List.of(tools.ip(), "netns", "pids", namespace));
                if (pids.ok() && !pids.stdout().isBlank()) {
                    failures.add(new TestbedException("processes " + String.join(",", pids.stdout().split("\\s+"))
                            + " were still running in " + namespace + " when it was removed; stop them before close()"));
                }
                deleteNamespace(shell, tools, namespace).ifPresent(failures::add);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        created.clear();
        return failures;
    }

    /** Deletes a namespace; a namespace that is already gone is not a failure. */
    private static Optional<Throwable> deleteNamespace(Shell shell, Tools tools, String namespace) {
        Shell.Result result = shell.exec(List.of(tools.ip(), "netns", "del", namespace));
        if (result.ok() || !namespaces(shell, tools).contains(namespace)) {
            return Optional.empty();
        }
        return Optional.of(new CommandException(result.command(), result.exitCode(), result.stderr(), null));
    }

    /** Every named network namespace on the machine. */
    static List<String> namespaces(Shell shell, Tools tools) {
        List<String> names = new ArrayList<>();
        for (String line : shell.run(List.of(tools.ip(), "netns", "list")).split("\\R")) {
            String name = line.strip().split("\\s+")[0]; // lines read "name (id: 3)" or just "name"
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    private void closeFromHook() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("railcoll: cleaning up testbed " + tag + " at exit: " + e.getMessage());
        }
    }

    private void unregisterHook() {
        if (Thread.currentThread() == shutdownHook) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook will find the testbed closed and do nothing.
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------------

    private List<String> ip(String namespace, String... args) {
        List<String> command = new ArrayList<>(List.of(tools.ip(), "-n", namespace));
        command.addAll(List.of(args));
        return command;
    }

    private static String bridge(int rail) {
        return "br" + rail;
    }

    /** The switch's end of (node, rail); unique inside the switch namespace, short enough for IFNAMSIZ. */
    private static String switchPort(int node, int rail) {
        return "n" + node + "r" + rail;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("testbed " + tag + " is closed");
        }
    }

    private void checkNode(int node) {
        if (node < 0 || node >= spec.nodes()) {
            throw new IllegalArgumentException("node must be 0.." + (spec.nodes() - 1) + ", got " + node);
        }
    }

    private void checkRail(int rail) {
        if (rail < 0 || rail >= spec.rails()) {
            throw new IllegalArgumentException("rail must be 0.." + (spec.rails() - 1) + ", got " + rail);
        }
    }

    /** True if a capability set has what {@code ip netns add} and {@code tc} need. */
    static boolean hasNetworkAdmin(long capabilities) {
        long needed = (1L << CAP_NET_ADMIN) | (1L << CAP_SYS_ADMIN); // SYS_ADMIN: ip netns add mounts
        return (capabilities & needed) == needed;
    }

    /** The effective capability set of this process, from /proc/self/status; 0 if unreadable. */
    private static long effectiveCapabilities() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return Long.parseUnsignedLong(line.substring("CapEff:".length()).strip(), 16);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
