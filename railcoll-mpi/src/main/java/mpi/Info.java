package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Key/value hints ({@code MPI_Info}), kept in this process. railcoll reads none of them: {@code splitType} accepts one
 * and ignores it, as MPI lets an implementation do with hints it does not know.
 */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries = new LinkedHashMap<>();
    private final boolean predefined;
    private boolean freed;

    /** An empty Info; needs {@code MPI.Init}, as in the bindings. */
    public Info() throws MPIException {
        this(false);
        MPI.check();
    }

    Info(boolean predefined) {
        this.predefined = predefined;
    }

    public void set(String key, String value) throws MPIException {
        live("set");
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw error(MPI.ERR_INFO_KEY, "set: key " + (key == null ? "null" : "'" + key + "'")
                    + " must have 1 to " + MPI.MAX_INFO_KEY + " characters");
        }
        if (value == null || value.length() > MPI.MAX_INFO_VAL) {
            throw error(MPI.ERR_INFO_VALUE, "set: the value of '" + key + "' must be non-null with at most "
                    + MPI.MAX_INFO_VAL + " characters");
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null if it has none. */
    public String get(String key) throws MPIException {
        return live("get").get(key);
    }

    public void delete(String key) throws MPIException {
        if (live("delete").remove(key) == null) {
            throw error(MPI.ERR_INFO_NOKEY, "delete: no key '" + key + "'");
        }
    }

    public int size() throws MPIException {
        return live("size").size();
    }

    /** The {@code i}th key, in the order they were first set. */
    public String getKey(int i) throws MPIException {
        List<String> keys = new ArrayList<>(live("getKey").keySet());
        if (i < 0 || i >= keys.size()) {
            throw error(MPI.ERR_ARG, "getKey: index " + i + " outside 0.." + (keys.size() - 1));
        }
        return keys.get(i);
    }

    public Info dup() throws MPIException {
        Info copy = new Info(false);
        copy.entries.putAll(live("dup"));
        return copy;
    }

    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** Frees it; {@code MPI.INFO_NULL} and {@code MPI.INFO_ENV} stay as they are. */
    @Override
    public void free() throws MPIException {
        live("free");
        if (!predefined) {
            freed = true;
            entries.clear();
        }
    }

    /** Sets every key of {@code from} here (a communicator's hints taking new ones). */
    void putAll(Info from) {
        entries.putAll(from.entries);
    }

    /** Holds exactly {@code from}'s keys (a communicator's hints copied from its parent or a dupWithInfo). */
    void replaceWith(Info from) {
        if (from != this) {
            entries.clear();
            entries.putAll(from.entries);
        }
    }

    public boolean isNull() {
        return freed;
    }

    private Map<String, String> live(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw error(MPI.ERR_INFO, call + " on a freed Info");
        }
        return entries;
    }

    /** Info calls are tied to no communicator: their errors go to {@code COMM_WORLD}'s handler. */
    private static MPIException error(int errorClass, String message) {
        return MPI.COMM_WORLD.raise("Info", MPIException.of(errorClass, "Info." + message));
    }
}
