package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attributes cached on one communicator ({@code setAttr}, {@code getAttr}, {@code deleteAttr}), and the keyvals of
 * the job ({@code createKeyval}, {@code freeKeyval}). As in the bindings, a value is stored Java-serialised and
 * {@code getAttr} returns a copy; a {@code dup} copies the values. The predefined keyvals ({@code MPI.TAG_UB} ...
 * {@code MPI.WIN_DISP_UNIT}, 0..9) are read-only and answer what this implementation is. Thread-safe.
 */
final class Attributes {
    /** The first keyval {@code createKeyval} hands out: after the predefined ones. */
    private static final int FIRST_USER_KEYVAL = 10;
    private static final AtomicInteger NEXT = new AtomicInteger(FIRST_USER_KEYVAL);
    private static final Set<Integer> LIVE = ConcurrentHashMap.newKeySet();

    private final Map<Integer, byte[]> values = new ConcurrentHashMap<>();

    static int createKeyval() {
        int k = NEXT.getAndIncrement();
        LIVE.add(k);
        return k;
    }

    /** Frees {@code keyval}; values set with it stay until deleted, as MPI says. False if it was not a live keyval. */
    static boolean freeKeyval(int keyval) {
        return LIVE.remove(keyval);
    }

    static boolean predefined(int keyval) {
        return keyval >= 0 && keyval < FIRST_USER_KEYVAL;
    }

    static boolean live(int keyval) {
        return LIVE.contains(keyval);
    }

    void set(int keyval, Object value) throws MPIException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new MPIException(e);
        }
        values.put(keyval, bytes.toByteArray());
    }

    /** A copy of the value, or null if none is set. */
    Object get(int keyval) throws MPIException {
        byte[] b = values.get(keyval);
        if (b == null) {
            return null;
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new MPIException(e);
        }
    }

    boolean delete(int keyval) {
        return values.remove(keyval) != null;
    }

    /** {@code dup}: the new communicator gets a copy of every value. */
    void copyTo(Attributes to) {
        to.values.putAll(values);
    }

    /**
     * The value of a predefined keyval on a communicator of {@code size} ranks in a job of {@code worldSize}:
     * {@code TAG_UB} the largest tag ({@code Integer.MAX_VALUE}, as Open MPI's ob1), {@code HOST}
     * {@code MPI.PROC_NULL} (no host process), {@code IO} {@code MPI.ANY_SOURCE} (every rank may do I/O),
     * {@code APPNUM} 0, {@code LASTUSEDCODE} {@code MPI.ERR_LASTCODE}, {@code UNIVERSE_SIZE} the job's size,
     * {@code WTIME_IS_GLOBAL} false; the window keyvals have no value on a communicator.
     */
    static Object predefinedValue(int keyval, int worldSize) {
        return switch (keyval) {
            case MPI.TAG_UB -> Integer.MAX_VALUE;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> MPI.ANY_SOURCE;
            case MPI.APPNUM -> 0;
            case MPI.LASTUSEDCODE -> MPI.ERR_LASTCODE;
            case MPI.UNIVERSE_SIZE -> worldSize;
            case MPI.WTIME_IS_GLOBAL -> Boolean.FALSE;
            default -> null;
        };
    }
}
