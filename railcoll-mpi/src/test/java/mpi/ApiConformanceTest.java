package mpi;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every public class, constructor, method and constant of the spec of Open MPI 5.0's Java bindings (sections 1-3 of
 * ompi-java-api.md), as listed in the test resource {@code mpi/ompi-java-api.txt}, exists in railcoll-mpi with exactly
 * that signature: modifiers, parameter and return types, declared checked exceptions, constant values. Reflection
 * only; nothing is initialised, so it runs without {@code MPI.Init}.
 */
class ApiConformanceTest {
    static final String RESOURCE = "/mpi/ompi-java-api.txt";

    /** The resource's entries, comments and blank lines left out. */
    static List<String[]> entries() throws IOException {
        List<String[]> out = new ArrayList<>();
        try (InputStream in = ApiConformanceTest.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is not on the test class path");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(line.split("\\|", -1));
                }
            }
        }
        return out;
    }

    @Test
    void everyMemberOfTheSpecIsDeclaredWithItsExactSignature() throws IOException {
        List<String[]> entries = entries();
        assertTrue(entries.size() > 600, "the resource lists " + entries.size() + " members; expected the whole spec");
        List<String> problems = new ArrayList<>();
        for (String[] e : entries) {
            String problem = check(e);
            if (problem != null) {
                problems.add(String.join("|", e) + "  ->  " + problem);
            }
        }
        assertEquals("", String.join("\n", problems), problems.size() + " of " + entries.size()
                + " spec members are missing or differ");
    }

    /** The checker itself fails on what is wrong: a missing method, another return type, a missing throws, a value. */
    @Test
    void aWrongSignatureIsReported() {
        String[][] wrong = {
                {"M", "mpi.Comm", "public final", "int", "getSize", "int", "mpi.MPIException"},
                {"M", "mpi.Comm", "public final", "long", "getSize", "", "mpi.MPIException"},
                {"M", "mpi.Comm", "public final", "int", "getSize", "", ""},
                {"M", "mpi.Comm", "public nonfinal", "int", "getSize", "", "mpi.MPIException"},
                {"M", "mpi.Comm", "public static", "int", "getSize", "", "mpi.MPIException"},
                {"M", "mpi.Comm", "public final", "void", "noSuchMethod", "", "mpi.MPIException"},
                {"F", "mpi.MPI", "public static final", "int", "ANY_TAG", "-2"},
                {"F", "mpi.MPI", "public static final", "int", "NO_SUCH_CONSTANT", "0"},
                {"C", "mpi.Comm", "public final", "java.lang.Object", "mpi.Freeable,java.lang.Cloneable"},
                {"C", "mpi.NoSuchClass", "public final", "java.lang.Object", ""},
                {"N", "mpi.Info"},
                {"K", "mpi.Op", "public", "mpi.UserFunction", ""},
        };
        for (String[] w : wrong) {
            assertTrue(check(w) != null, "not reported: " + String.join("|", w));
        }
        assertEquals(null, check(new String[] {"M", "mpi.Comm", "public final", "int", "getSize", "",
                "mpi.MPIException"}));
    }

    /** What is wrong with entry {@code e}, or null when the implementation declares it as listed. */
    static String check(String[] e) {
        try {
            Class<?> c = type(e[1]);
            return switch (e[0]) {
                case "C" -> checkClass(c, e[2], e[3], e[4]);
                case "N" -> c.getConstructors().length == 0 ? null
                        : "has public constructors " + Arrays.toString(c.getConstructors());
                case "K" -> checkConstructor(c, e[2], e[3], e[4]);
                case "M" -> checkMethod(c, e[2], e[3], e[4], e[5], e[6]);
                case "F" -> checkField(c, e[2], e[3], e[4], e[5]);
                default -> "unknown entry kind " + e[0];
            };
        } catch (ClassNotFoundException ex) {
            return "no class " + ex.getMessage();
        }
    }

    private static String checkClass(Class<?> c, String mods, String superclass, String interfaces)
            throws ClassNotFoundException {
        List<String> wrong = new ArrayList<>(modifierProblems(c.getModifiers(), mods));
        if (mods.contains("interface") != c.isInterface()) {
            wrong.add(c.isInterface() ? "is an interface" : "is not an interface");
        }
        if (!superclass.isEmpty() && c.getSuperclass() != type(superclass)) {
            wrong.add("extends " + c.getSuperclass());
        }
        Set<String> want = names(interfaces);
        Set<String> have = Arrays.stream(c.getInterfaces()).map(Class::getName).collect(Collectors.toCollection(TreeSet::new));
        if (!want.equals(have)) {
            wrong.add("implements " + have + ", not " + want);
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    private static String checkConstructor(Class<?> c, String mods, String params, String exceptions)
            throws ClassNotFoundException {
        Class<?>[] p = types(params);
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (Arrays.equals(k.getParameterTypes(), p)) {
                return problems(k, k.getModifiers(), mods, exceptions);
            }
        }
        return "no constructor (" + params + ")";
    }

    private static String checkMethod(Class<?> c, String mods, String returns, String name, String params,
            String exceptions) throws ClassNotFoundException {
        Class<?>[] p = types(params);
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(name) && !m.isBridge() && !m.isSynthetic()
                        && Arrays.equals(m.getParameterTypes(), p)) {
                    String wrong = problems(m, m.getModifiers(), mods, exceptions);
                    if (!m.getReturnType().getTypeName().equals(returns)) {
                        wrong = (wrong == null ? "" : wrong + "; ") + "returns " + m.getReturnType().getTypeName();
                    }
                    return wrong;
                }
            }
        }
        return "no method " + name + "(" + params + ")";
    }

    private static String checkField(Class<?> c, String mods, String type, String name, String value) {
        Field f;
        try {
            f = c.getDeclaredField(name);
        } catch (NoSuchFieldException ex) {
            return "no field " + name;
        }
        List<String> wrong = new ArrayList<>(modifierProblems(f.getModifiers(), mods));
        if (!f.getType().getTypeName().equals(type)) {
            wrong.add("of type " + f.getType().getTypeName());
        }
        if (!value.isEmpty()) {
            try {
                if (f.getInt(null) != Integer.parseInt(value)) {
                    wrong.add("value " + f.getInt(null) + ", not " + value);
                }
            } catch (IllegalAccessException | IllegalArgumentException ex) {
                wrong.add("value unreadable: " + ex);
            }
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    private static String problems(Executable x, int modifiers, String mods, String exceptions) {
        List<String> wrong = new ArrayList<>(modifierProblems(modifiers, mods));
        Set<String> have = Arrays.stream(x.getExceptionTypes()).map(Class::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        if (!have.equals(names(exceptions))) {
            wrong.add("throws " + have);
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    /** How {@code modifiers} differ from the listed ones (see the resource's header). */
    private static List<String> modifierProblems(int modifiers, String mods) {
        Set<String> want = Set.of(mods.split(" "));
        List<String> wrong = new ArrayList<>();
        expect(wrong, want.contains("public"), Modifier.isPublic(modifiers), "public");
        expect(wrong, want.contains("protected"), Modifier.isProtected(modifiers), "protected");
        expect(wrong, want.contains("static"), Modifier.isStatic(modifiers), "static");
        if (!want.contains("interface")) {
            expect(wrong, want.contains("abstract"), Modifier.isAbstract(modifiers), "abstract");
        }
        if (want.contains("final") || want.contains("nonfinal")) {
            expect(wrong, want.contains("final"), Modifier.isFinal(modifiers), "final");
        }
        return wrong;
    }

    private static void expect(List<String> wrong, boolean want, boolean have, String modifier) {
        if (want != have) {
            wrong.add(have ? "is " + modifier : "is not " + modifier);
        }
    }

    private static Set<String> names(String list) {
        return list.isEmpty() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(list.split(",")));
    }

    private static Class<?>[] types(String list) throws ClassNotFoundException {
        if (list.isEmpty()) {
            return new Class<?>[0];
        }
        String[] names = list.split(",");
        Class<?>[] out = new Class<?>[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = type(names[i]);
        }
        return out;
    }

    /** A type by its source name: primitives, arrays ({@code int[]}, {@code String[][]}), binary class names. */
    static Class<?> type(String name) throws ClassNotFoundException {
        if (name.endsWith("[]")) {
            return type(name.substring(0, name.length() - 2)).arrayType();
        }
        return switch (name) {
            case "int" -> int.class;
            case "long" -> long.class;
            case "short" -> short.class;
            case "byte" -> byte.class;
            case "char" -> char.class;
            case "boolean" -> boolean.class;
            case "float" -> float.class;
            case "double" -> double.class;
            case "void" -> void.class;
            default -> Class.forName(name, false, ApiConformanceTest.class.getClassLoader());
        };
    }
}
