package io.railcoll.bootstrap;

import java.io.File;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The client calls of {@code libpmix} (PMIx 3 and 4; the structures below are the same in both) bound through the
 * FFM API, and where the library is found. Layouts on x86-64 and aarch64 Linux, from {@code pmix_common.h}
 * (PMIx 4.2.2, checked with offsetof):
 *
 * <pre>
 * pmix_proc_t   (260 bytes): char nspace[256] @0, uint32 rank @256
 * pmix_value_t  ( 32 bytes): uint16 type @0, union data @8 (char* string, uint32, uint16, bool, size_t, ...)
 * pmix_info_t   (552 bytes): char key[512] @0, uint32 flags @512, pmix_value_t value @520
 * pmix_scope_t  uint8 (PMIX_GLOBAL = 3); pmix_status_t int32 (PMIX_SUCCESS = 0)
 * </pre>
 * The library stays loaded for the life of the process: a client that initialised PMIx cannot unload it.
 */
final class PmixLibrary {
    static final long PROC_BYTES = 260;
    static final long PROC_RANK = 256;
    static final long NSPACE_BYTES = 256;
    static final long VALUE_BYTES = 32;
    static final long VALUE_DATA = 8;
    static final long INFO_BYTES = 552;
    static final long INFO_KEY_BYTES = 512;
    static final long INFO_VALUE = 520;
    static final int RANK_WILDCARD = 0xfffffffe;
    static final byte SCOPE_GLOBAL = 3;
    static final short TYPE_BOOL = 1;
    static final short TYPE_BYTE = 2;
    static final short TYPE_STRING = 3;
    static final short TYPE_SIZE = 4;
    static final short TYPE_INT = 6;
    static final short TYPE_INT8 = 7;
    static final short TYPE_INT16 = 8;
    static final short TYPE_INT32 = 9;
    static final short TYPE_INT64 = 10;
    static final short TYPE_UINT8 = 12;
    static final short TYPE_UINT16 = 13;
    static final short TYPE_UINT32 = 14;
    static final short TYPE_UINT64 = 15;
    static final short TYPE_PROC_RANK = 40;
    /** Names the library goes by, newest soname first. */
    private static final List<String> NAMES = List.of("libpmix.so.2", "libpmix.so");
    /** Where distributions put it: Debian and Ubuntu (a private pmix2 prefix and the multiarch directory), RPM. */
    private static final List<String> DIRECTORIES = List.of("/usr/lib/x86_64-linux-gnu/pmix2/lib",
            "/usr/lib/aarch64-linux-gnu/pmix2/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64/pmix/lib", "/usr/lib64", "/usr/lib", "/usr/local/lib", "/opt/pmix/lib");

    final Path path;
    final MethodHandle init;
    final MethodHandle finalizeCall;
    final MethodHandle get;
    final MethodHandle put;
    final MethodHandle commit;
    final MethodHandle fence;
    final MethodHandle version;
    final MethodHandle errorString;
    final MethodHandle valueDestruct;
    final MethodHandle free;

    private PmixLibrary(Path path) {
        this.path = path;
        Linker linker = Linker.nativeLinker();
        SymbolLookup lib = SymbolLookup.libraryLookup(path, Arena.global());
        init = bind(linker, lib, "PMIx_Init", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
        finalizeCall = bind(linker, lib, "PMIx_Finalize", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        get = bind(linker, lib, "PMIx_Get", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
        put = bind(linker, lib, "PMIx_Put", FunctionDescriptor.of(JAVA_INT, JAVA_BYTE, ADDRESS, ADDRESS));
        commit = bind(linker, lib, "PMIx_Commit", FunctionDescriptor.of(JAVA_INT));
        fence = bind(linker, lib, "PMIx_Fence", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG));
        version = bind(linker, lib, "PMIx_Get_version", FunctionDescriptor.of(ADDRESS));
        errorString = bind(linker, lib, "PMIx_Error_string", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        valueDestruct = bind(linker, lib, "PMIx_Value_destruct", FunctionDescriptor.ofVoid(ADDRESS));
        free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ADDRESS));
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lib, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new IllegalStateException(
                "libpmix has no " + name + ": PMIx 3 or newer is needed"));
        return linker.downcallHandle(symbol, descriptor);
    }

    /** Loads the library at {@code path}. */
    static PmixLibrary load(Path path) {
        return new PmixLibrary(path);
    }

    /**
     * Where libpmix is: {@code RAILCOLL_PMIX_LIBRARY} if set (a file), else the first of its names in
     * {@code LD_LIBRARY_PATH}'s directories, then in the directories distributions use.
     */
    static Optional<Path> find(Map<String, String> env) {
        String given = env.get("RAILCOLL_PMIX_LIBRARY");
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given.strip());
            if (!Files.isReadable(p)) {
                throw new IllegalArgumentException("RAILCOLL_PMIX_LIBRARY=" + given + ": no such readable file");
            }
            return Optional.of(p);
        }
        for (String dir : searchPath(env)) {
            for (String name : NAMES) {
                Path p = Path.of(dir, name);
                if (Files.isReadable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** The directories {@link #find} looks in, in order, for messages. */
    static List<String> searchPath(Map<String, String> env) {
        LinkedHashSet<String> dirs = new LinkedHashSet<>();
        String ld = env.get("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(File.pathSeparator)) {
                if (!d.isBlank()) {
                    dirs.add(d);
                }
            }
        }
        dirs.addAll(DIRECTORIES);
        return new ArrayList<>(dirs);
    }
}
