package mpi;

/**
 * The one checked exception of the API. An MPI error carries its error code and class (both one of the
 * {@code MPI.ERR_*} values; railcoll-mpi reports only predefined classes, so the two are equal) and a message that
 * starts with the class's C name, e.g. {@code MPI_ERR_ROOT: ...}; what the bindings throw for anything else (a call
 * before {@code Init}, a second {@code Init}) has code and class 0.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    public MPIException(String message) {
        super(message);
        this.errorCode = 0;
        this.errorClass = 0;
    }

    public MPIException(Throwable cause) {
        super(cause);
        setStackTrace(cause.getStackTrace());
        this.errorCode = 0;
        this.errorClass = 0;
    }

    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    /** An MPI error of a predefined class, its message prefixed with the class's C name. */
    static MPIException of(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, ErrorClasses.name(errorClass) + ": " + message);
    }

    /** As {@link #of(int, String)}, keeping {@code cause} (a railcoll failure) as the cause. */
    static MPIException of(int errorClass, String message, Throwable cause) {
        MPIException e = of(errorClass, message);
        e.initCause(cause);
        return e;
    }

    public int getErrorCode() {
        return errorCode;
    }

    public int getErrorClass() {
        return errorClass;
    }
}
