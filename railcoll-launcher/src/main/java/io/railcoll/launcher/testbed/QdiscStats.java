package io.railcoll.launcher.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counters of one queueing discipline, as {@code tc -s qdisc show} prints them.
 *
 * @param device      the interface, or {@code ""} if tc did not print it (a {@code show dev X} query)
 * @param kind        {@code tbf}, {@code netem}, {@code noqueue}, ...
 * @param handle      e.g. {@code 1:}
 * @param parent      {@code root} or the parent class, e.g. {@code 1:1}
 * @param sentBytes   bytes it passed on
 * @param sentPackets packets it passed on
 * @param drops       packets it dropped: queue full, and for netem also the loss it was told to cause
 * @param overlimits  times a packet had to wait for tokens (a busy limiter, not a loss)
 */
public record QdiscStats(String device, String kind, String handle, String parent,
                         long sentBytes, long sentPackets, long drops, long overlimits) {
    private static final Pattern HEADER = Pattern.compile("qdisc (\\S+) (\\S+)(?: dev (\\S+))? (root|parent (\\S+)).*");
    private static final Pattern SENT = Pattern.compile(
            "\\s*Sent (\\d+) bytes (\\d+) pkt \\(dropped (\\d+), overlimits (\\d+).*");

    /** True for the qdisc attached to the device itself, which sees every packet the device sends. */
    public boolean isRoot() {
        return parent.equals("root");
    }

    /** Parses the output of {@code tc -s qdisc show [dev X]}; qdiscs without counters are skipped. */
    public static List<QdiscStats> parse(String tcOutput) {
        List<QdiscStats> result = new ArrayList<>();
        Matcher header = null;
        for (String line : tcOutput.split("\\R")) {
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                header = h;
                continue;
            }
            Matcher s = SENT.matcher(line);
            if (s.matches() && header != null) {
                String parent = header.group(4).equals("root") ? "root" : header.group(5);
                result.add(new QdiscStats(header.group(3) == null ? "" : header.group(3), header.group(1),
                        header.group(2), parent, Long.parseLong(s.group(1)), Long.parseLong(s.group(2)),
                        Long.parseLong(s.group(3)), Long.parseLong(s.group(4))));
                header = null;
            }
        }
        return result;
    }
}
