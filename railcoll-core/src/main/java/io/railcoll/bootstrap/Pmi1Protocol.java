package io.railcoll.bootstrap;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PMI-1 wire format of MPICH's process managers (Hydra's {@code mpiexec}): one line per message, space-separated
 * {@code key=value} attributes, the first being {@code cmd}. A client sends a command and reads one reply:
 *
 * <pre>
 * cmd=init pmi_version=1 pmi_subversion=1        -> cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0
 * cmd=get_maxes                                   -> cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0
 * cmd=get_my_kvsname                              -> cmd=my_kvsname kvsname=kvs_42_0 rc=0
 * cmd=put kvsname=K key=k value=v                 -> cmd=put_result rc=0 msg=success
 * cmd=barrier_in                                  -> cmd=barrier_out            (once every rank sent barrier_in)
 * cmd=get kvsname=K key=k                         -> cmd=get_result rc=0 msg=success value=v
 * cmd=finalize                                    -> cmd=finalize_ack
 * </pre>
 * Over {@code PMI_PORT} a client first sends {@code cmd=initack pmiid=ID} and reads {@code cmd=initack} followed by
 * {@code cmd=set size=N}, {@code cmd=set rank=R} and {@code cmd=set debug=D}. Pure: formats and parses lines only.
 */
final class Pmi1Protocol {
    private Pmi1Protocol() {
    }

    /** A command line with its attributes, ending in a newline; values must hold no space, '=' or newline. */
    static String command(String cmd, String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in key, value pairs");
        }
        StringBuilder b = new StringBuilder("cmd=").append(cmd);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            String value = keysAndValues[i + 1];
            if (value.isEmpty() || value.chars().anyMatch(c -> c == ' ' || c == '=' || c == '\n' || c == '\r')) {
                throw new IllegalArgumentException("PMI-1 cannot carry the value '" + value + "' of " + keysAndValues[i]
                        + ": it must be non-empty, without spaces, '=' or line breaks");
            }
            b.append(' ').append(keysAndValues[i]).append('=').append(value);
        }
        return b.append('\n').toString();
    }

    /**
     * The attributes of one reply line, in order. A word without '=' belongs to the value before it (a server's
     * {@code msg} may hold spaces); a line with no {@code cmd} is an error naming it (the peer is no PMI server).
     */
    static Map<String, String> parse(String line) {
        Map<String, String> attributes = new LinkedHashMap<>();
        String last = null;
        for (String word : line.strip().split(" +")) {
            if (word.isEmpty()) {
                continue;
            }
            int eq = word.indexOf('=');
            if (eq > 0) {
                last = word.substring(0, eq);
                attributes.put(last, word.substring(eq + 1));
            } else if (last != null) {
                attributes.put(last, attributes.get(last) + " " + word);
            } else {
                throw new IllegalStateException("not a PMI-1 reply: '" + line.strip() + "'");
            }
        }
        if (!attributes.containsKey("cmd")) {
            throw new IllegalStateException("not a PMI-1 reply (no cmd): '" + line.strip() + "'");
        }
        return attributes;
    }

    /**
     * Checks that {@code reply} is the answer {@code expected} to {@code sent} and that its {@code rc}, if any, is 0;
     * returns its attributes.
     */
    static Map<String, String> expect(String line, String expected, String sent) {
        Map<String, String> reply = parse(line);
        if (!reply.get("cmd").equals(expected)) {
            throw new IllegalStateException("PMI-1: sent '" + sent.strip() + "', expected cmd=" + expected + ", got '"
                    + line.strip() + "'");
        }
        String rc = reply.get("rc");
        if (rc != null && !rc.equals("0")) {
            throw new IllegalStateException("PMI-1: '" + sent.strip() + "' failed: rc=" + rc
                    + (reply.containsKey("msg") ? " (" + reply.get("msg") + ")" : ""));
        }
        return reply;
    }

    /** An integer attribute, naming the reply when it is missing or not a number. */
    static int intAttribute(Map<String, String> reply, String key) {
        String v = reply.get(key);
        if (v == null) {
            throw new IllegalStateException("PMI-1: reply cmd=" + reply.get("cmd") + " has no " + key);
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("PMI-1: reply cmd=" + reply.get("cmd") + " has " + key + "=" + v
                    + ", not a number");
        }
    }
}
