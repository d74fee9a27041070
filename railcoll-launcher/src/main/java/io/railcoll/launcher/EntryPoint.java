package io.railcoll.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * What a rank runs: a {@link RankApp} (railcoll opens the communicator and hands it over) or any class with a
 * {@code public static void main(String[])} (the program opens its own, with {@code Railcoll.init()}).
 *
 * <p>{@link #check} finds the class before any rank starts, in a throw-away class loader over the job's class path,
 * so a misspelt class, a class without an entry point or a class compiled for a newer Java is one line from the
 * launcher, not a stack trace from every rank. Stateless.
 */
public enum EntryPoint {
    /** Implements {@link RankApp}: RankMain calls {@code Railcoll.init()} and then {@code run}. */
    RANK_APP,
    /** Has {@code public static void main(String[])}: RankMain calls it; the program opens its communicator. */
    MAIN;

    /** The entry point of a loaded class. */
    public static EntryPoint of(Class<?> c) {
        if (RankApp.class.isAssignableFrom(c)) {
            return RANK_APP;
        }
        if (mainMethod(c) != null) {
            return MAIN;
        }
        throw new IllegalArgumentException(c.getName() + " has neither a public static void main(String[]) nor"
                + " implements " + RankApp.class.getName());
    }

    /** The class's {@code public static void main(String[])}, or null. */
    static Method mainMethod(Class<?> c) {
        try {
            Method m = c.getMethod("main", String[].class);
            return Modifier.isStatic(m.getModifiers()) && m.getReturnType() == void.class ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /**
     * Finds {@code className} on {@code classPath} (the user's entries, searched after railcoll's own) without
     * initialising it, and returns its entry point.
     *
     * @throws IllegalArgumentException one line naming what is wrong: not found (with the class path searched),
     *                                  no entry point, or compiled for a newer Java than the ranks run
     */
    public static EntryPoint check(String className, JobClassPath classPath) {
        URL[] urls;
        try {
            urls = classPath.userUrls();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("class path entry is not a path: " + e.getMessage(), e);
        }
        try (URLClassLoader loader = new URLClassLoader("railcoll-check", urls, EntryPoint.class.getClassLoader())) {
            Class<?> c;
            try {
                c = Class.forName(className, false, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("class " + className + " not found on the class path ("
                        + classPath.describeUser() + "); give it with --classpath or --jar");
            } catch (UnsupportedClassVersionError e) {
                throw new IllegalArgumentException(newerVersionHint(className, loader), e);
            } catch (LinkageError e) {
                throw new IllegalArgumentException("class " + className + " cannot be loaded: " + e, e);
            }
            return of(c);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the class path: " + e.getMessage(), e);
        }
    }

    /** Class file major version of the running Java (69 for Java 25). */
    static int runtimeClassVersion() {
        return Runtime.version().feature() + 44;
    }

    private static String newerVersionHint(String className, ClassLoader loader) {
        int runtime = Runtime.version().feature();
        int major = classFileMajor(className, loader);
        String compiledFor = major > 44 ? "Java " + (major - 44) + " (class file version " + major + ")" : "a newer Java";
        return "class " + className + " was compiled for " + compiledFor + ", but the ranks run Java " + runtime
                + " (class file version " + runtimeClassVersion() + " at most): compile it with javac --release "
                + runtime + " (or lower), or run railcoll on a newer JDK (JAVA_HOME)";
    }

    /** The class file's major version, or -1 when it cannot be read. */
    static int classFileMajor(String className, ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(className.replace('.', '/') + ".class")) {
            if (in == null) {
                return -1;
            }
            byte[] head = in.readNBytes(8);
            return head.length < 8 ? -1 : ((head[6] & 0xff) << 8) | (head[7] & 0xff);
        } catch (IOException e) {
            return -1;
        }
    }
}
