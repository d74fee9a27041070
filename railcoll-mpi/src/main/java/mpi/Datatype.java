package mpi;

/**
 * A datatype: the predefined ones are the {@code MPI.*} constants; derived ones are built by the {@code create*}
 * factories and must be {@link #commit()}ted before use. Every datatype has a base type, the Java storage its data
 * lives in ({@code int[]}/{@code IntBuffer} for {@code MPI.INT} and the types derived from it, {@code byte[]} for the
 * pair types and {@code createStruct} results), and {@link #getExtent()}, {@link #getSize()}, {@link #getLb()} report
 * in units of that storage, as in Open MPI's bindings: {@code MPI.INT.getExtent() == 1},
 * {@code MPI.DOUBLE_INT.getExtent() == 16}. Constructor arguments keep MPI's units: {@code createVector} strides and
 * {@code createIndexed} displacements in extents of the old type, {@code createHVector}, {@code createHIndexed},
 * {@code createStruct} and {@code createResized} in bytes.
 *
 * <p>Immutable layout; naming and freeing are not synchronised (one thread per datatype object while it changes).
 */
public final class Datatype implements Freeable, Cloneable {
    final BaseType baseType;
    final TypeMap map;
    /** The leaf for a predefined type (used by reductions); null for a derived one. */
    private final Primitive predefined;
    private String name;
    private boolean committed;
    private boolean freed;
    private final Attributes attributes = new Attributes();
    /**
     * The reduction plans of the ops this type was last reduced by (decision 0136), replaced round-robin. Calls on
     * several threads may read and write it at once: each entry is an immutable record, so a reader sees a whole one
     * or none, and a lost write only means the plan is made again.
     */
    private final PlanEntry[] plans = new PlanEntry[4];
    private int nextPlan;

    private record PlanEntry(Op op, Reductions.Plan plan) {
    }

    private Datatype(BaseType baseType, TypeMap map, Primitive predefined, String name, boolean committed) {
        this.baseType = baseType;
        this.map = map;
        this.predefined = predefined;
        this.name = name;
        this.committed = committed;
    }

    /** A predefined type, committed from the start. */
    static Datatype predefined(BaseType baseType, Primitive p) {
        return new Datatype(baseType, TypeMap.of(p), p, p.cName, true);
    }

    /** {@code MPI.DATATYPE_NULL}. */
    static Datatype nullType() {
        Datatype t = new Datatype(BaseType.NULL, null, null, "MPI_DATATYPE_NULL", false);
        t.freed = true;
        return t;
    }

    private static Datatype derived(BaseType baseType, TypeMap map) {
        return new Datatype(baseType, map, null, "", false);
    }

    // ---- queries, in base units ----

    public int getLb() throws MPIException {
        return inBaseUnits(valid("getLb").map.lb);
    }

    public int getExtent() throws MPIException {
        return inBaseUnits(valid("getExtent").map.extent());
    }

    public int getTrueLb() throws MPIException {
        return inBaseUnits(valid("getTrueLb").map.trueLb);
    }

    public int getTrueExtent() throws MPIException {
        TypeMap m = valid("getTrueExtent").map;
        return inBaseUnits(m.trueUb - m.trueLb);
    }

    public int getSize() throws MPIException {
        return inBaseUnits(valid("getSize").map.size);
    }

    private int inBaseUnits(long bytes) {
        return Math.toIntExact(bytes / baseType.bytes);
    }

    // ---- lifecycle ----

    /** Makes a derived type usable in communication; a no-op on a predefined or already committed one. */
    public void commit() throws MPIException {
        valid("commit");
        committed = true;
    }

    /** Frees a derived type: it is null afterwards. Freeing a predefined type is an {@code MPI.ERR_TYPE} error. */
    public void free() throws MPIException {
        MPI.check();
        if (this == MPI.DATATYPE_NULL) {
            return;
        }
        if (predefined != null) {
            throw MPI.COMM_WORLD.raise("Datatype.free", MPIException.of(MPI.ERR_TYPE,
                    "invalid datatype: the predefined " + name + " cannot be freed"));
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** A new, committed-if-this-was, handle of the same type ({@code MPI_Type_dup}). */
    public Datatype dup() throws MPIException {
        Datatype d = derived(baseType, valid("dup").map);
        d.committed = committed;
        attributes.copyTo(d.attributes);
        return d;
    }

    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    public void setName(String name) throws MPIException {
        valid("setName");
        this.name = name;
    }

    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    // ---- attributes (values Java-serialised, as on a communicator; one keyval space with Comm's) ----

    /** A new keyval for {@link #setAttr}: {@link Comm#createKeyval()}, whose keyvals serve both. */
    public static int createKeyval() throws MPIException {
        return Comm.createKeyval();
    }

    /** Frees a keyval of {@link #createKeyval}: {@link Comm#freeKeyval(int)}. */
    public static void freeKeyval(int keyval) throws MPIException {
        Comm.freeKeyval(keyval);
    }

    /** Caches {@code value} (which must be {@link java.io.Serializable}) under {@code keyval} on this datatype. */
    public void setAttr(int keyval, Object value) throws MPIException {
        attributes.set(userKeyval("setAttr", keyval), value);
    }

    /** A copy of the value cached under {@code keyval}, or null if none is; copied by {@link #dup()}. */
    public Object getAttr(int keyval) throws MPIException {
        return attributes.get(userKeyval("getAttr", keyval));
    }

    /** Removes the value cached under {@code keyval} (nothing if none is). */
    public void deleteAttr(int keyval) throws MPIException {
        attributes.delete(userKeyval("deleteAttr", keyval));
    }

    /**
     * {@code keyval}, if it is one of {@link #createKeyval}'s still live; the predefined keyvals are a communicator's
     * (MPI defines none for datatypes), so they, like freed or unknown ones, are an {@code MPI.ERR_KEYVAL} error.
     */
    private int userKeyval(String call, int keyval) throws MPIException {
        valid(call);
        if (!Attributes.live(keyval)) {
            throw MPI.COMM_WORLD.raise("Datatype." + call, MPIException.of(MPI.ERR_KEYVAL, "invalid keyval: " + call
                    + " on " + describe() + " with " + keyval + (Attributes.predefined(keyval)
                    ? ", a communicator's predefined keyval" : ", not a keyval of createKeyval (or freed)")));
        }
        return keyval;
    }

    // ---- constructors ----

    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        oldType.valid("createContiguous");
        nonNegative("createContiguous", "count", count);
        return derived(oldType.baseType, TypeMap.blocks(new long[] {0}, new int[] {count}, oldType.map));
    }

    /** {@code count} blocks of {@code blockLength} elements, {@code stride} extents of {@code oldType} apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        oldType.valid("createVector");
        return derived(oldType.baseType, vector("createVector", count, blockLength, stride * oldType.map.extent(), oldType));
    }

    /** As {@link #createVector}, the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        oldType.valid("createHVector");
        return derived(oldType.baseType, vector("createHVector", count, blockLength, stride, oldType));
    }

    private static TypeMap vector(String call, int count, int blockLength, long strideBytes, Datatype oldType)
            throws MPIException {
        nonNegative(call, "count", count);
        nonNegative(call, "blockLength", blockLength);
        long[] displacements = new long[count];
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
            displacements[i] = i * strideBytes;
            lengths[i] = blockLength;
        }
        return TypeMap.blocks(displacements, lengths, oldType.map);
    }

    /** Blocks at {@code displacements} in extents of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        oldType.valid("createIndexed");
        return derived(oldType.baseType, indexed("createIndexed", blockLengths, displacements, oldType.map.extent(), oldType));
    }

    /** As {@link #createIndexed}, the displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        oldType.valid("createHIndexed");
        return derived(oldType.baseType, indexed("createHIndexed", blockLengths, displacements, 1, oldType));
    }

    private static TypeMap indexed(String call, int[] blockLengths, int[] displacements, long unit, Datatype oldType)
            throws MPIException {
        sameLength(call, blockLengths, displacements);
        long[] d = new long[displacements.length];
        for (int i = 0; i < d.length; i++) {
            nonNegative(call, "blockLengths[" + i + "]", blockLengths[i]);
            d[i] = displacements[i] * unit;
        }
        return TypeMap.blocks(d, blockLengths, oldType.map);
    }

    /**
     * A struct: block i holds {@code blockLengths[i]} elements of {@code types[i]} at byte {@code displacements[i]}.
     * Its base type is {@code BYTE} (so its extent is in bytes), and its extent is rounded up to the largest
     * alignment of its members, as a C struct's.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        MPI.check();
        sameLength("createStruct", blockLengths, displacements);
        if (types.length != blockLengths.length) {
            throw MPI.COMM_WORLD.raise("Datatype.createStruct", MPIException.of(MPI.ERR_ARG, "createStruct: "
                    + blockLengths.length + " block lengths but " + types.length + " types"));
        }
        long[] d = new long[displacements.length];
        TypeMap[] maps = new TypeMap[types.length];
        for (int i = 0; i < d.length; i++) {
            nonNegative("createStruct", "blockLengths[" + i + "]", blockLengths[i]);
            maps[i] = types[i].valid("createStruct").map;
            d[i] = displacements[i];
        }
        return derived(BaseType.BYTE, TypeMap.struct(d, blockLengths, maps, true));
    }

    /** The same data with lower bound {@code lb} and extent {@code extent}, both in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        oldType.valid("createResized");
        return derived(oldType.baseType, oldType.map.resized(lb, extent));
    }

    // ---- for the communication layer ----

    /** The predefined leaf of this type, or null for a derived one. */
    Primitive primitive() {
        return predefined;
    }

    /** Checks that this type may carry data in {@code call}: alive and committed. */
    /** How {@code op} reduces this type ({@link Reductions#plan}), made once per op and kept. */
    Reductions.Plan plan(Op op, Call call) throws MPIException {
        PlanEntry[] known = plans;
        for (PlanEntry e : known) {
            if (e != null && e.op == op) {
                return e.plan;
            }
        }
        Reductions.Plan plan = Reductions.plan(op, this, call);
        int slot = nextPlan;
        nextPlan = (slot + 1) % known.length;
        known[slot] = new PlanEntry(op, plan);
        return plan;
    }

    void usable(Call call) throws MPIException {
        if (freed) {
            throw call.error(MPI.ERR_TYPE, "invalid datatype: " + (this == MPI.DATATYPE_NULL ? "MPI.DATATYPE_NULL"
                    : "a freed datatype"));
        }
        if (!committed) {
            throw call.error(MPI.ERR_TYPE, "invalid datatype: " + describe()
                    + " is not committed (call commit() before communicating with it)");
        }
    }

    String describe() {
        return predefined != null ? "MPI." + predefinedName() : "a derived datatype" + (name.isEmpty() ? "" : " '" + name + "'")
                + " (base " + baseType + ", extent " + map.extent() + " bytes, size " + map.size + " bytes)";
    }

    private String predefinedName() {
        return predefined == Primitive.INT2 ? "INT2" : predefined.name();
    }

    private Datatype valid(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw MPI.COMM_WORLD.raise("Datatype." + call, MPIException.of(MPI.ERR_TYPE, "invalid datatype: "
                    + (this == MPI.DATATYPE_NULL ? "MPI.DATATYPE_NULL" : "a freed datatype") + " passed to " + call));
        }
        return this;
    }

    private static void nonNegative(String call, String what, int value) throws MPIException {
        if (value < 0) {
            throw MPI.COMM_WORLD.raise("Datatype." + call, MPIException.of(MPI.ERR_COUNT, "invalid count: " + call + ": "
                    + what + " is " + value));
        }
    }

    private static void sameLength(String call, int[] blockLengths, int[] displacements) throws MPIException {
        if (blockLengths.length != displacements.length) {
            throw MPI.COMM_WORLD.raise("Datatype." + call, MPIException.of(MPI.ERR_ARG, call + ": " + blockLengths.length
                    + " block lengths but " + displacements.length + " displacements"));
        }
    }
}
