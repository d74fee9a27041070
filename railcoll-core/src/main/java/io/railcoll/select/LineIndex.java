package io.railcoll.select;

import java.util.HashMap;
import java.util.Map;

/**
 * The line each key of a {@code java.util.Properties} text starts on, so errors can name it ({@link java.util.Properties}
 * itself forgets lines). It follows the format's logical lines: comments start with # or !, a line ending in an odd
 * number of backslashes continues on the next, and a key ends at the first unescaped '=', ':' or white space. A key
 * given twice is an error here, where Properties would silently keep the last. Immutable once built.
 */
final class LineIndex {
    private final Map<String, Integer> lines = new HashMap<>();

    LineIndex(String text, String source) {
        String[] raw = text.split("\r\n|\n|\r", -1);
        for (int i = 0; i < raw.length; i++) {
            int first = i + 1;
            String line = raw[i].stripLeading();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
                continue;
            }
            while (continues(raw[i]) && i + 1 < raw.length) {
                i++;
            }
            String key = key(line);
            Integer before = lines.put(key, first);
            if (before != null) {
                throw new TuningFileException(source + " line " + first + ": " + key + " is already set on line " + before);
            }
        }
    }

    /** The 1-based line of {@code key}, or 0 when unknown. */
    int lineOf(String key) {
        return lines.getOrDefault(key, 0);
    }

    private static boolean continues(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static String key(String line) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                key.append(line.charAt(++i));
            } else if (c == '=' || c == ':' || Character.isWhitespace(c)) {
                break;
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }
}
