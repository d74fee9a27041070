package io.railcoll.launcher;

import io.railcoll.Communicator;
import io.railcoll.Railcoll;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * The entry point of every rank process: {@code RankMain <class> [args...]}, where the class is a {@link RankApp}
 * (this opens the communicator and runs it) or has a {@code public static void main(String[])} (called as {@code java}
 * would; the program opens its own communicator with {@code Railcoll.init()}). Exits 0 when the app returns, 1 with
 * the failure on stderr when it throws, so the launcher can bring the job down. A {@code main} that returns leaves
 * the JVM to end as {@code java} does: when the program's last non-daemon thread ends (railcoll's are daemons).
 */
public final class RankMain {
    private RankMain() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: RankMain <RankApp class> [args...]");
            System.exit(2);
        }
        int status = 0;
        Communicator comm = null;
        try {
            Class<?> c = Class.forName(args[0]);
            List<String> appArgs = Arrays.asList(args).subList(1, args.length);
            if (EntryPoint.of(c) == EntryPoint.MAIN) {
                runMain(c, appArgs.toArray(String[]::new));
                return;
            }
            RankApp app = instantiate(args[0]);
            comm = Railcoll.init();
            app.run(comm, appArgs);
        } catch (Throwable t) {
            // Reported before the communicator closes: closing after a failure may wait seconds for peers that are
            // gone (their acknowledgements, a goodbye), and the launcher must see why this rank failed meanwhile.
            fail(t);
            status = 1;
        }
        if (comm != null) {
            try {
                comm.close();
            } catch (Throwable t) {
                if (status == 0) {
                    fail(t);
                    status = 1;
                }
            }
        }
        System.out.flush();
        System.err.flush();
        System.exit(status);
    }

    /** Calls the program's main; its exception, not the reflective wrapper, is the rank's failure. */
    private static void runMain(Class<?> c, String[] args) throws Throwable {
        try {
            Method main = EntryPoint.mainMethod(c);
            main.setAccessible(true); // as java does, a main of a package-private class runs too
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void fail(Throwable t) {
        System.err.println("FAILED: " + t);
        t.printStackTrace(System.err);
        System.err.flush();
    }

    static RankApp instantiate(String className) throws ReflectiveOperationException {
        Class<?> c = Class.forName(className);
        if (!RankApp.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException(className + " does not implement " + RankApp.class.getName());
        }
        return (RankApp) c.getDeclaredConstructor().newInstance();
    }
}
