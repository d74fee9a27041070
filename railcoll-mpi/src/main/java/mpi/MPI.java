package mpi;

import io.railcoll.Config;
import io.railcoll.Railcoll;
import io.railcoll.bootstrap.BootstrapSources;
import io.railcoll.reduce.PredefinedOperator;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.Properties;

/**
 * The MPI environment of Open MPI 5.0's Java bindings, in pure Java over railcoll: {@link #Init} joins the job
 * through whichever launcher started this process (railcoll's {@code bin/railcoll run}, Open MPI's {@code mpirun}
 * through PMIx, MPICH's {@code mpiexec}, Slurm's {@code srun}, torchrun-style variables; docs/launching.md) and binds
 * {@link #COMM_WORLD} to railcoll's communicator; {@link #Finalize} leaves it. The constants have the bindings'
 * values (those of Open MPI 5.0's {@code mpi.h} on LP64 Linux), and the buffer helpers work before {@code Init}.
 *
 * <p>Every method but the buffer helpers, {@link #isInitialized}, {@link #isFinalized}, {@link #getVersion} and
 * {@link #getLibVersion} throws an {@link MPIException} (class 0) before {@code Init} and after {@code Finalize}.
 */
public final class MPI {
    // ---- error handlers (first: communicators start with ERRORS_ARE_FATAL) ----
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(Errhandler.Kind.FATAL);
    public static final Errhandler ERRORS_ABORT = new Errhandler(Errhandler.Kind.ABORT);
    public static final Errhandler ERRORS_RETURN = new Errhandler(Errhandler.Kind.RETURN);

    // ---- int constants ----
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;
    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;
    public static final int CART = 1;
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final int PROC_NULL = -2;
    public static final int ROOT = -4;
    public static final int UNDEFINED = -32766;
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;
    public static final int KEYVAL_INVALID = -1;
    public static final int BSEND_OVERHEAD = 128;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    // ---- error classes ----
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    public static final int ERR_PROC_ABORTED = 74;
    public static final int ERR_LASTCODE = 92;
    /** 0, as in the bindings, which declare it but never set it. */
    public static final int ERR_SYSRESOURCE = 0;

    // ---- datatypes ----
    public static final Datatype DATATYPE_NULL = Datatype.nullType();
    public static final Datatype BYTE = Datatype.predefined(BaseType.BYTE, Primitive.BYTE);
    public static final Datatype CHAR = Datatype.predefined(BaseType.CHAR, Primitive.CHAR);
    public static final Datatype SHORT = Datatype.predefined(BaseType.SHORT, Primitive.SHORT);
    public static final Datatype BOOLEAN = Datatype.predefined(BaseType.BOOLEAN, Primitive.BOOLEAN);
    public static final Datatype INT = Datatype.predefined(BaseType.INT, Primitive.INT);
    public static final Datatype LONG = Datatype.predefined(BaseType.LONG, Primitive.LONG);
    public static final Datatype FLOAT = Datatype.predefined(BaseType.FLOAT, Primitive.FLOAT);
    public static final Datatype DOUBLE = Datatype.predefined(BaseType.DOUBLE, Primitive.DOUBLE);
    public static final Datatype PACKED = Datatype.predefined(BaseType.PACKED, Primitive.PACKED);
    public static final Datatype INT2 = Datatype.predefined(BaseType.BYTE, Primitive.INT2);
    public static final Datatype SHORT_INT = Datatype.predefined(BaseType.BYTE, Primitive.SHORT_INT);
    public static final Datatype LONG_INT = Datatype.predefined(BaseType.BYTE, Primitive.LONG_INT);
    public static final Datatype FLOAT_INT = Datatype.predefined(BaseType.BYTE, Primitive.FLOAT_INT);
    public static final Datatype DOUBLE_INT = Datatype.predefined(BaseType.BYTE, Primitive.DOUBLE_INT);
    public static final Datatype FLOAT_COMPLEX = Datatype.predefined(BaseType.FLOAT, Primitive.FLOAT_COMPLEX);
    public static final Datatype DOUBLE_COMPLEX = Datatype.predefined(BaseType.DOUBLE, Primitive.DOUBLE_COMPLEX);

    // ---- access to the pair types' elements (Struct helpers) ----
    public static final Int2 int2 = new Int2();
    public static final ShortInt shortInt = new ShortInt();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();

    // ---- operations ----
    public static final Op MAX = new Op("MPI_MAX", PredefinedOperator.MAX);
    public static final Op MIN = new Op("MPI_MIN", PredefinedOperator.MIN);
    public static final Op SUM = new Op("MPI_SUM", PredefinedOperator.SUM);
    public static final Op PROD = new Op("MPI_PROD", PredefinedOperator.PROD);
    public static final Op LAND = new Op("MPI_LAND", PredefinedOperator.LAND);
    public static final Op BAND = new Op("MPI_BAND", PredefinedOperator.BAND);
    public static final Op LOR = new Op("MPI_LOR", PredefinedOperator.LOR);
    public static final Op BOR = new Op("MPI_BOR", PredefinedOperator.BOR);
    public static final Op LXOR = new Op("MPI_LXOR", PredefinedOperator.LXOR);
    public static final Op BXOR = new Op("MPI_BXOR", PredefinedOperator.BXOR);
    public static final Op MINLOC = new Op("MPI_MINLOC", PredefinedOperator.MINLOC);
    public static final Op MAXLOC = new Op("MPI_MAXLOC", PredefinedOperator.MAXLOC);
    public static final Op REPLACE = new Op("MPI_REPLACE", null);
    public static final Op NO_OP = new Op("MPI_NO_OP", null);

    // ---- groups and hints ----
    public static final Group GROUP_EMPTY = new Group(new int[0]);
    /** The null request: {@code isNull()} is true, a wait or test on it returns at once with an empty status. */
    public static final Request REQUEST_NULL = new Request(null);
    public static final Info INFO_NULL = new Info(true);
    public static final Info INFO_ENV = new Info(true);

    // ---- communicators ----
    public static final Intracomm COMM_WORLD = new Intracomm("MPI_COMM_WORLD", true);
    public static final Intracomm COMM_SELF = new Intracomm("MPI_COMM_SELF", true);

    private enum State { NOT_INITIALIZED, INITIALIZED, FINALIZED }

    private static final Object LIFECYCLE = new Object();
    private static volatile State state = State.NOT_INITIALIZED;
    private static volatile int provided;
    private static volatile Thread mainThread;
    private static volatile int worldRank = -1;

    public MPI() {
    }

    // ---- lifecycle ----

    /** Joins the job; returns a copy of {@code args}. A second call, even after {@link #Finalize}, is an error. */
    public static String[] Init(String[] args) throws MPIException {
        init(THREAD_SINGLE);
        return args.clone();
    }

    /**
     * As {@link #Init}, with a thread level. {@link #THREAD_MULTIPLE} lets any thread call at any time (railcoll's
     * {@code RAILCOLL_THREAD_SAFE=on}: calls run one after another, in the order their threads arrive); the lower
     * levels are one thread at a time, which each of them implies. Returns the level provided, the one asked for.
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        return init(Math.max(THREAD_SINGLE, Math.min(THREAD_MULTIPLE, required)));
    }

    private static int init(int level) throws MPIException {
        synchronized (LIFECYCLE) {
            if (state != State.NOT_INITIALIZED) {
                throw new MPIException("MPI is already initialized.");
            }
            Map<String, String> env = System.getenv();
            Backend world;
            try {
                Config config = Config.fromEnvironment(env);
                if (level == THREAD_MULTIPLE) {
                    config = config.withThreadSafe(true);
                }
                world = startedByALauncher(env)
                        ? new RailcollBackend(Railcoll.init(BootstrapSources.open(env, System.err), config, System.err))
                        : new SelfBackend();
            } catch (RuntimeException e) {
                throw MPIException.of(ERR_OTHER, "MPI.Init could not join the job: " + e.getMessage(), e);
            }
            COMM_WORLD.bind(world, java.util.stream.IntStream.range(0, world.size()).toArray());
            COMM_SELF.bind(new SelfBackend(), new int[] {world.rank()});
            provided = level;
            mainThread = Thread.currentThread();
            worldRank = world.rank();
            state = State.INITIALIZED;
            return level;
        }
    }

    /** Leaves the job: says goodbye to the other ranks and releases railcoll's sockets and shared memory. */
    public static void Finalize() throws MPIException {
        synchronized (LIFECYCLE) {
            check();
            BufferedSends.drain(); // buffered messages are delivered before the rank leaves
            Backend world = COMM_WORLD.backendForFinalize();
            state = State.FINALIZED;
            COMM_WORLD.unbind();
            COMM_SELF.unbind();
            try {
                world.close();
            } catch (RuntimeException e) {
                throw MPIException.of(ERR_OTHER, "MPI.Finalize on rank " + worldRank + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Attaches {@code buffer} for buffered sends ({@code Comm.bSend}, {@code ibSend}, {@code bSendInit}'s rounds): each
     * message takes its bytes plus {@link #BSEND_OVERHEAD} of it while in flight. One per process; {@code ERR_BUFFER} when one is attached already.
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        check();
        BufferedSends.attach(buffer);
    }

    /** Waits until every buffered send has finished and detaches the buffer: the same array, or null if none. */
    public static byte[] detachBuffer() throws MPIException {
        check();
        return BufferedSends.detach();
    }

    /** Between {@code Init} and {@code Finalize}: what {@code isInitialized() && !isFinalized()} says, unchecked. */
    static boolean running() {
        return state == State.INITIALIZED;
    }

    /** Usable at any time; declares {@code MPIException} as the bindings do, but never throws it. */
    public static boolean isInitialized() throws MPIException {
        return state != State.NOT_INITIALIZED;
    }

    /** Usable at any time; declares {@code MPIException} as the bindings do, but never throws it. */
    public static boolean isFinalized() throws MPIException {
        return state == State.FINALIZED;
    }

    public static int queryThread() throws MPIException {
        check();
        return provided;
    }

    public static boolean isThreadMain() throws MPIException {
        check();
        return Thread.currentThread() == mainThread;
    }

    /** Seconds since an arbitrary time in the past, from {@link System#nanoTime()}; not synchronised across ranks. */
    public static double wtime() throws MPIException {
        check();
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #wtime()}: one nanosecond. */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** This host's name, at most 256 characters. */
    public static String getProcessorName() throws MPIException {
        check();
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return name.length() > 256 ? name.substring(0, 256) : name;
    }

    /** The MPI standard version of this API: 3.1, as Open MPI 5.0's bindings report. */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** Names this library and its version, e.g. {@code railcoll-mpi 0.1.0 (Open MPI 5.0 Java API over railcoll)}. */
    public static String getLibVersion() {
        String v = "unknown";
        try (InputStream in = MPI.class.getResourceAsStream("railcoll-mpi.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                v = p.getProperty("version", v);
            }
        } catch (IOException e) {
            // the version stays "unknown"
        }
        return "railcoll-mpi " + v + " (Open MPI 5.0 Java API over railcoll)";
    }

    /** A no-op, as in the bindings. */
    public static void pControl(int level, Object obj) {
    }

    // ---- direct buffers: usable before Init ----

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    // ---- offsets: slice (the buffer variants reposition their argument, as in the bindings) ----

    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.clear().position(offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.clear().position(offset).slice();
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    // ---- internal ----

    /** The guard nearly every call runs first: an {@link MPIException} (class 0) before Init or after Finalize. */
    static void check() throws MPIException {
        State s = state;
        if (s == State.NOT_INITIALIZED) {
            throw new MPIException("MPI is not initialized.");
        }
        if (s == State.FINALIZED) {
            throw new MPIException("MPI is finalized.");
        }
    }

    /**
     * Whether a launcher started this process (or {@code RAILCOLL_BOOTSTRAP} names a source). If not, the program
     * was started as a plain {@code java Main}: as Open MPI's singleton init, it runs as a job of one rank, its
     * {@code COMM_WORLD} local like {@code COMM_SELF} (decision 0077).
     */
    private static boolean startedByALauncher(Map<String, String> env) {
        String forced = env.get(BootstrapSources.VARIABLE);
        if (forced != null && !forced.isBlank() && !forced.strip().equals("auto")) {
            return true;
        }
        try {
            BootstrapSources.choose(env);
            return true;
        } catch (IllegalArgumentException e) {
            return false; // no launcher's variables are set
        }
    }

    static boolean threadMultiple() {
        return provided == THREAD_MULTIPLE;
    }

    /** This process's rank in {@code COMM_WORLD}, for messages; -1 before Init. */
    static int worldRank() {
        return worldRank;
    }
}
