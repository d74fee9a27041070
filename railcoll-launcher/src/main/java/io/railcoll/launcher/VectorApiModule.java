package io.railcoll.launcher;

import java.lang.module.ModuleFinder;
import java.util.List;

/**
 * The Vector API's incubator module on a rank's command line (decisions 0210, 0233): the option that resolves it, whether
 * a rank's JVM options ask for it, and the one line a JVM started with it prints on its standard error,
 * {@value #WARNING}, which no JVM option turns off. A rank whose options ask for the module gets that line dropped
 * from its forwarded standard error, once, and only where the whole line is exactly that (a line naming other
 * incubator modules too, or the same line printed a second time, is the program's and is kept): the launcher knows
 * why the JVM printed it, and a user or a test reading the job's output would take it for a fault. Stateless;
 * any thread.
 */
public final class VectorApiModule {
    /** What railcoll's commands add to a rank's JVM options unless told not to ({@code bin/railcoll run --vector-api off}). */
    public static final String OPTION = "--add-modules=jdk.incubator.vector";
    /** The line the JVM prints on standard error when the boot layer holds this incubator module and no other. */
    public static final String WARNING = "WARNING: Using incubator modules: jdk.incubator.vector";
    private static final String MODULE = "jdk.incubator.vector";

    private VectorApiModule() {
    }

    /**
     * Whether this Java runtime, the one {@link JobLauncher} starts ranks with, has the module at all: every JDK 25 has,
     * but a runtime made by {@code jlink} has only the modules it was given (the distribution's {@code runtime/} has
     * not), and {@code --add-modules} of a module it lacks stops the JVM before it starts.
     */
    public static boolean available() {
        return ModuleFinder.ofSystem().find(MODULE).isPresent();
    }

    /**
     * Whether {@code jvmOptions} resolve the module: an {@code --add-modules} (as {@code --add-modules=A,B} or
     * {@code --add-modules A,B}) that lists it.
     */
    public static boolean requested(List<String> jvmOptions) {
        for (int i = 0; i < jvmOptions.size(); i++) {
            String o = jvmOptions.get(i).strip();
            String modules = null;
            if (o.startsWith("--add-modules=")) {
                modules = o.substring("--add-modules=".length());
            } else if (o.equals("--add-modules") && i + 1 < jvmOptions.size()) {
                modules = jvmOptions.get(++i);
            }
            if (modules != null) {
                for (String m : modules.split(",")) {
                    if (m.strip().equals(MODULE)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether {@code jvmOptions} leave the JVM without C2, the only compiler that turns the Vector API into vector
     * instructions: {@code -Xint}, or {@code -XX:TieredStopAtLevel} below 4. Such a JVM would box every vector of
     * every combine (slower than the staged loops, and allocating), so railcoll's commands do not add the module to it.
     */
    public static boolean withoutC2(List<String> jvmOptions) {
        boolean interpreted = false;
        int level = 4; // the last -XX:TieredStopAtLevel given wins, as the JVM reads them
        for (String o : jvmOptions) {
            String s = o.strip();
            if (s.equals("-Xint")) {
                interpreted = true;
            } else if (s.startsWith("-XX:TieredStopAtLevel=")) {
                try {
                    level = Integer.parseInt(s.substring("-XX:TieredStopAtLevel=".length()).strip());
                } catch (NumberFormatException e) {
                    // the JVM refuses it at start-up with its own message
                }
            }
        }
        return interpreted || level < 4;
    }

    /** One rank's standard error: drops the first line that is exactly {@link #WARNING}, if the rank asked for it. */
    static final class StderrFilter {
        private boolean pending;

        StderrFilter(boolean requested) {
            this.pending = requested;
        }

        /** Whether {@code line}, the next line of the rank's standard error, is to be dropped. One thread. */
        boolean drops(String line) {
            if (pending && line.equals(WARNING)) {
                pending = false;
                return true;
            }
            return false;
        }
    }
}
