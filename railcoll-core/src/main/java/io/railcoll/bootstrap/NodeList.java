package io.railcoll.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's host list syntax, as in {@code SLURM_STEP_NODELIST}: comma-separated names, each with optional bracketed
 * ranges that keep leading zeros ({@code node[01-03,07]}, {@code rack[1-2]-n[1-2]}). Pure.
 */
public final class NodeList {
    private NodeList() {
    }

    /** Every host named, in order. */
    public static List<String> expand(String list) {
        List<String> hosts = new ArrayList<>();
        for (String item : splitTopLevel(list.strip())) {
            if (!item.isEmpty()) {
                expandItem(item, list, hosts);
            }
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("the node list '" + list + "' names no host");
        }
        return hosts;
    }

    /** The first host named, without expanding the rest. */
    public static String first(String list) {
        return expand(list).getFirst();
    }

    /** Splits at commas outside brackets. */
    private static List<String> splitTopLevel(String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new IllegalArgumentException("the node list '" + list + "' has a ']' without '['");
                }
            } else if (c == ',' && depth == 0) {
                items.add(list.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("the node list '" + list + "' has a '[' without ']'");
        }
        items.add(list.substring(start).strip());
        return items;
    }

    private static void expandItem(String item, String list, List<String> out) {
        int open = item.indexOf('[');
        if (open < 0) {
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String rest = item.substring(close + 1);
        List<String> tails = new ArrayList<>();
        if (rest.isEmpty()) {
            tails.add("");
        } else {
            expandItem(rest, list, tails);
        }
        for (String range : item.substring(open + 1, close).split(",")) {
            range = range.strip();
            int dash = range.indexOf('-');
            String lo = dash < 0 ? range : range.substring(0, dash);
            String hi = dash < 0 ? range : range.substring(dash + 1);
            long from;
            long to;
            try {
                from = Long.parseLong(lo);
                to = Long.parseLong(hi);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the node list '" + list + "' has '" + range
                        + "' in brackets; expected numbers or number ranges like 01-04");
            }
            if (to < from || to - from > 100_000) {
                throw new IllegalArgumentException("the node list '" + list + "' has the range '" + range
                        + "', which runs backwards or names over 100000 hosts");
            }
            int width = lo.length();
            for (long n = from; n <= to; n++) {
                String number = Long.toString(n);
                String padded = number.length() < width ? "0".repeat(width - number.length()) + number : number;
                for (String tail : tails) {
                    out.add(prefix + padded + tail);
                }
            }
        }
    }
}
