package io.railcoll.select;

/** A tuning file that cannot be used; the message names the file, the line and what is wrong with it. */
public final class TuningFileException extends IllegalArgumentException {
    public TuningFileException(String message) {
        super(message);
    }

    public TuningFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
