package io.railcoll.launcher;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of every rank JVM: railcoll's own jars (the launcher's {@code java.class.path}, which holds the
 * core, the launcher's {@code RankMain} and their dependencies) followed by the user's entries. Railcoll's come first,
 * so a user jar cannot shadow the library the ranks bootstrap with. User entries are made absolute (ranks of a
 * namespace testbed start elsewhere); a {@code dir/*} entry stays a wildcard, expanded by each rank's {@code java}.
 * Immutable.
 */
public record JobClassPath(List<String> railcoll, List<String> user) {
    public JobClassPath {
        railcoll = List.copyOf(railcoll);
        user = List.copyOf(user);
    }

    /** Railcoll's jars only: the ranks run an app shipped with railcoll. */
    public static JobClassPath railcollOnly() {
        return new JobClassPath(split(System.getProperty("java.class.path", "")), List.of());
    }

    /** Railcoll's jars and the user's entries ({@code :}-separated lists allowed in each), made absolute. */
    public static JobClassPath withUser(List<String> userEntries) {
        List<String> user = new ArrayList<>();
        for (String list : userEntries) {
            for (String e : split(list)) {
                String abs = e.endsWith("*") ? Path.of(e.substring(0, e.length() - 1)).toAbsolutePath() + File.separator + "*"
                        : Path.of(e).toAbsolutePath().normalize().toString();
                if (!user.contains(abs)) {
                    user.add(abs);
                }
            }
        }
        return new JobClassPath(railcollOnly().railcoll(), user);
    }

    /** What the rank's {@code -cp} gets. */
    public String rankClassPath() {
        List<String> all = new ArrayList<>(railcoll);
        all.addAll(user);
        return String.join(File.pathSeparator, all);
    }

    /** The user's entries as URLs, {@code dir/*} expanded to its jars, for checking a class before launch. */
    URL[] userUrls() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String e : user) {
            if (e.endsWith(File.separator + "*")) {
                Path dir = Path.of(e.substring(0, e.length() - 2));
                try (DirectoryStream<Path> jars = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
                    for (Path j : jars) {
                        urls.add(j.toUri().toURL());
                    }
                } catch (IOException ignored) {
                    // a missing directory holds no class; the not-found message lists the entry
                }
            } else {
                urls.add(Path.of(e).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The user's entries for a message, or a note that there are none. */
    String describeUser() {
        if (user.isEmpty()) {
            return "only railcoll's jars";
        }
        StringBuilder sb = new StringBuilder("railcoll's jars and ");
        for (int i = 0; i < user.size(); i++) {
            String e = user.get(i);
            boolean missing = !e.endsWith("*") && !Files.exists(Path.of(e));
            sb.append(i > 0 ? File.pathSeparator : "").append(e).append(missing ? " (missing)" : "");
        }
        return sb.toString();
    }

    private static List<String> split(String list) {
        List<String> out = new ArrayList<>();
        for (String e : list.split(File.pathSeparator)) {
            if (!e.isBlank()) {
                out.add(e.strip());
            }
        }
        return out;
    }
}
