package mpi;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every method of the bindings that railcoll-mpi does not provide (decisions 0117 and 0124, docs/mpi.md):
 * inter-communicators, dynamic processes, one-sided and MPI-IO, refuses with
 * {@code MPI.ERR_UNSUPPORTED_OPERATION} and a message naming it: each is found by reflection and called with default
 * arguments (null, 0, false), on {@code COMM_WORLD} (errors returned) or on an instance of its class made in this
 * package (none can be made through the API). The neighbourhood collectives, defined only on communicators with a
 * topology, are {@code MPI.ERR_TOPOLOGY} on one without.
 */
class UnsupportedOperationsTest {

    @BeforeAll
    static void init() throws MPIException {
        Singleton.init();
    }

    @Test
    void intracommsDynamicProcessMethodsRefuse() throws Exception {
        assertRefused(MPI.COMM_WORLD, Intracomm.class, Set.of("openPort", "closePort", "accept", "connect",
                "publishName", "unpublishName", "lookupName", "spawn", "spawnMultiple"), 15);
        assertRefused(MPI.COMM_WORLD, Comm.class, Set.of("createIntercomm"), 1);
    }

    @Test
    void everyMethodOfTheInterCommunicatorClassRefuses() throws Exception {
        assertRefused(returning(new Intercomm()), Intercomm.class, Set.of("dup", "iDup", "dupWithInfo",
                "getRemoteSize", "getRemoteGroup", "merge"), 6);
        for (Comm c : List.of(returning(new Intercomm()))) {
            RuntimeException e = assertThrows(RuntimeException.class, c::clone);
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, assertInstanceOf(MPIException.class, e.getCause())
                    .getErrorClass());
        }
    }

    @Test
    void windowsAndFilesCannotBeMade() throws Exception {
        List<Executable> all = new ArrayList<>();
        all.addAll(Arrays.asList(Win.class.getConstructors()));
        all.addAll(Arrays.asList(File.class.getConstructors()));
        assertEquals(4, all.size(), "Win's and File's public constructors");
        for (Executable k : all) {
            assertUnsupported(k, () -> ((Constructor<?>) k).newInstance(defaults(k)), k.getDeclaringClass().getSimpleName() + "(");
        }
    }

    @Test
    void neighbourhoodCollectivesAreTopologyErrorsWithoutATopology() throws Exception {
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
        assertEquals(4, assertNeighbourhood(MPI.COMM_WORLD, "neighbor", MPI.ERR_TOPOLOGY), "the blocking forms");
        assertEquals(4, assertNeighbourhood(MPI.COMM_WORLD, "iNeighbor", MPI.ERR_TOPOLOGY), "the i-forms");
    }

    private static int assertNeighbourhood(Comm comm, String prefix, int errorClass) throws Exception {
        int called = 0;
        for (Method m : Comm.class.getDeclaredMethods()) {
            String n = m.getName();
            if (Modifier.isPublic(m.getModifiers()) && n.startsWith(prefix)) {
                InvocationTargetException e = assertThrows(InvocationTargetException.class,
                        () -> m.invoke(comm, defaults(m)), n);
                MPIException x = assertInstanceOf(MPIException.class, e.getCause(), n);
                assertEquals(errorClass, x.getErrorClass(), n + ": " + x.getMessage());
                assertTrue(x.getMessage().contains(n), x.getMessage());
                called++;
            }
        }
        return called;
    }

    /**
     * Calls every public method of {@code type} named in {@code names} (declared there, bridges left out) on
     * {@code target}, or statically, and checks each refuses; {@code count} overloads in all, every name found.
     */
    private static void assertRefused(Object target, Class<?> type, Set<String> names, int count) throws Exception {
        int called = 0;
        Set<String> seen = new java.util.TreeSet<>();
        for (Method m : type.getDeclaredMethods()) {
            if (!names.contains(m.getName()) || m.isBridge() || !Modifier.isPublic(m.getModifiers())) {
                continue;
            }
            Object on = Modifier.isStatic(m.getModifiers()) ? null : target;
            assertUnsupported(m, () -> m.invoke(on, defaults(m)), type.getSimpleName() + "." + m.getName());
            seen.add(m.getName());
            called++;
        }
        assertEquals(new java.util.TreeSet<>(names), seen, "methods found on " + type.getSimpleName());
        assertEquals(count, called, "overloads of " + names + " on " + type.getSimpleName());
    }

    private static void assertUnsupported(Executable x, ReflectiveCall call, String named) {
        InvocationTargetException e = assertThrows(InvocationTargetException.class, call::run, x.toString());
        MPIException m = assertInstanceOf(MPIException.class, e.getCause(), x.toString());
        assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, m.getErrorClass(), x + ": " + m.getMessage());
        assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, m.getErrorCode(), x.toString());
        assertTrue(m.getMessage().contains(named), x + ": the message names it: " + m.getMessage());
        assertTrue(m.getMessage().contains("docs/mpi.md"), m.getMessage());
    }

    @FunctionalInterface
    private interface ReflectiveCall {
        void run() throws Exception;
    }

    /** A communicator made in this package, its errors returned (the default handler would end the JVM). */
    private static <C extends Comm> C returning(C comm) throws MPIException {
        comm.setErrhandler(MPI.ERRORS_RETURN);
        assertFalse(comm.isNull());
        return comm;
    }

    /** Default arguments: 0, false, or null for every reference. */
    static Object[] defaults(Executable x) {
        Class<?>[] p = x.getParameterTypes();
        Object[] args = new Object[p.length];
        for (int i = 0; i < p.length; i++) {
            if (p[i] == boolean.class) {
                args[i] = false;
            } else if (p[i] == int.class) {
                args[i] = 0;
            } else if (p[i] == long.class) {
                args[i] = 0L;
            }
        }
        return args;
    }
}
