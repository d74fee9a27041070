package io.railcoll.cli;

import io.railcoll.launcher.JobClassPath;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The program {@code railcoll run} starts on every rank, from what the user typed: which class, its arguments, the
 * class path after railcoll's jars, and the JVM options left once any class path among them is taken out (a second
 * {@code -cp} on the rank's command line would replace railcoll's jars, which is what made such jobs fail with
 * {@code ClassNotFoundException}). The class path comes, as with {@code java}, from {@code --classpath} (or one given
 * in a JVM option), else from {@code --jar}, else from {@code $CLASSPATH}. Immutable.
 */
record UserProgram(String mainClass, List<String> args, JobClassPath classPath, List<String> jvmOptions) {

    static UserProgram resolve(List<String> classPathOptions, String jar, String mainClassOption, List<String> jvmOptions,
                               List<String> positional, String classPathVariable) {
        List<String> userPath = new ArrayList<>(classPathOptions);
        List<String> otherJvmOptions = new ArrayList<>();
        for (int i = 0; i < jvmOptions.size(); i++) {
            String o = jvmOptions.get(i).strip();
            String[] words = o.split("\\s+", 2);
            if (words[0].equals("-cp") || words[0].equals("-classpath") || words[0].equals("--class-path")) {
                if (words.length == 2) {
                    userPath.add(words[1]);
                } else if (i + 1 < jvmOptions.size()) {
                    userPath.add(jvmOptions.get(++i));
                } else {
                    throw new IllegalArgumentException("--jvm-option " + o + " needs a class path after it");
                }
            } else if (o.startsWith("--class-path=")) {
                userPath.add(o.substring("--class-path=".length()));
            } else if (o.startsWith("-Djava.class.path=")) {
                userPath.add(o.substring("-Djava.class.path=".length()));
            } else if (o.equals("-jar")) {
                throw new IllegalArgumentException("--jvm-option -jar: give the jar with --jar JAR");
            } else {
                otherJvmOptions.add(jvmOptions.get(i));
            }
        }
        String main;
        List<String> args;
        if (jar != null) {
            Path jarPath = Path.of(jar);
            if (!Files.isRegularFile(jarPath)) {
                throw new IllegalArgumentException("--jar " + jar + ": no such file");
            }
            userPath.addFirst(jarPath.toString());
            String manifestMain = manifestMainClass(jarPath);
            if (mainClassOption != null) {
                main = mainClassOption;
                args = positional;
            } else if (manifestMain != null) {
                main = manifestMain;
                args = positional;
            } else if (!positional.isEmpty()) {
                // No Main-Class in the manifest: the first argument names the class, as without --jar.
                main = positional.getFirst();
                args = positional.subList(1, positional.size());
            } else {
                throw new IllegalArgumentException("--jar " + jar + " has no Main-Class in its manifest: give the class"
                        + " with --main-class CLASS");
            }
        } else {
            if (mainClassOption != null) {
                main = mainClassOption;
                args = positional;
            } else if (positional.isEmpty()) {
                throw new IllegalArgumentException("run needs the class to run (MAIN_CLASS) or --jar JAR");
            } else {
                main = positional.getFirst();
                args = positional.subList(1, positional.size());
            }
            if (userPath.isEmpty() && classPathVariable != null && !classPathVariable.isBlank()) {
                userPath.add(classPathVariable);
            }
        }
        if (main.endsWith(".class") || main.contains(File.separator)) {
            throw new IllegalArgumentException("'" + main + "' is a file, not a class name: give the fully qualified"
                    + " name (e.g. com.example.Main) and its directory or jar with --classpath");
        }
        return new UserProgram(main, List.copyOf(args), JobClassPath.withUser(userPath), List.copyOf(otherJvmOptions));
    }

    private static String manifestMainClass(Path jar) {
        try (JarFile f = new JarFile(jar.toFile())) {
            Manifest m = f.getManifest();
            String main = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            return main == null || main.isBlank() ? null : main.strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("--jar " + jar + " is not a readable jar: " + e.getMessage(), e);
        }
    }
}
