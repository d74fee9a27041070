package io.railcoll.launcher.testbed;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How testbed namespaces are named, and how a name is read back to find the job that made it.
 *
 * <p>Names are {@code rc-<pid>-<nonce>-<role>}: {@code <pid>-<nonce>} is the job's tag ({@code pid} of the
 * JVM that started the testbed, {@code nonce} random so one JVM can run several), {@code role} is
 * {@code n<node>}, {@code sw} (the switch) or {@code probe}. The pid lets a later launcher tell a live
 * job's namespaces from a dead one's, which assumes every launcher on the machine shares one pid
 * namespace (true for processes started from the same host shell or container). Names live in the
 * machine-wide {@code ip netns} directory, so the tag is what keeps concurrent jobs apart; interface names
 * never need it because every interface lives inside a namespace of its own job.
 */
final class NamespaceNames {
    static final String PREFIX = "rc-";
    private static final Pattern NAME = Pattern.compile("rc-((\\d+)-[a-z0-9]+)-([a-z0-9]+)");
    private static final Pattern TAG = Pattern.compile("\\d+-[a-z0-9]+");
    private static final SecureRandom RANDOM = new SecureRandom();

    private NamespaceNames() {
    }

    /** A fresh tag for a testbed started by this JVM. */
    static String newTag() {
        String nonce = Long.toString(RANDOM.nextLong() >>> 1, 36);
        return ProcessHandle.current().pid() + "-" + nonce.substring(0, Math.min(6, nonce.length()));
    }

    static String node(String tag, int node) {
        return PREFIX + tag + "-n" + node;
    }

    static String switchNamespace(String tag) {
        return PREFIX + tag + "-sw";
    }

    static String probe(String tag) {
        return PREFIX + tag + "-probe";
    }

    static boolean isTag(String tag) {
        return TAG.matcher(tag).matches();
    }

    /** The owner of a namespace this scheme named; empty for any other name. */
    static Optional<Owner> parse(String namespace) {
        Matcher m = NAME.matcher(namespace);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Owner(m.group(1), Long.parseLong(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty(); // a pid too long for a long was not made by us
        }
    }

    /** The tag and the pid of the JVM that made a namespace. */
    record Owner(String tag, long pid) {
        boolean alive() {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
    }
}
