package io.railcoll.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The job secret a user gives every rank, where no launcher offers a channel to share one safely (railcoll's own
 * variables, Slurm's environment, torchrun-style variables): {@code RAILCOLL_SECRET_FILE}, a file every rank can
 * read (a shared home directory, a Kubernetes Secret mounted as a volume), or {@code RAILCOLL_SECRET}, the secret
 * itself. Leading and trailing white space is not part of it (a file written by {@code echo} ends with a newline).
 *
 * @param secret the bytes every connection proves it knows
 * @param origin where they came from, for messages ({@code RAILCOLL_SECRET_FILE=/path} or {@code RAILCOLL_SECRET})
 */
public record UserSecret(byte[] secret, String origin) {
    public static final String FILE_VARIABLE = "RAILCOLL_SECRET_FILE";
    public static final String VARIABLE = "RAILCOLL_SECRET";

    public UserSecret {
        secret = secret.clone();
    }

    /** Reads the secret; {@code why} says why one is needed (which launcher gives no channel), for the error. */
    public static UserSecret fromEnvironment(Map<String, String> env, String why) {
        String file = blankToNull(env.get(FILE_VARIABLE));
        String value = blankToNull(env.get(VARIABLE));
        if (file != null && value != null) {
            throw new IllegalArgumentException("both " + FILE_VARIABLE + " and " + VARIABLE
                    + " are set: give the job secret one way only");
        }
        if (file != null) {
            String text;
            try {
                text = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(FILE_VARIABLE + "=" + file + ": cannot read the job secret ("
                        + e.getMessage() + ")", e);
            }
            if (text.isEmpty()) {
                throw new IllegalArgumentException(FILE_VARIABLE + "=" + file + ": the file is empty; it must hold the"
                        + " job secret (e.g. openssl rand -hex 32 > " + file + ")");
            }
            return new UserSecret(text.getBytes(StandardCharsets.UTF_8), FILE_VARIABLE + "=" + file);
        }
        if (value != null) {
            return new UserSecret(value.strip().getBytes(StandardCharsets.UTF_8), VARIABLE);
        }
        throw new IllegalArgumentException("no job secret: " + why + ", so every rank must be given the same secret:"
                + " set " + FILE_VARIABLE + " to a file every rank can read (e.g. made with openssl rand -hex 32 >"
                + " ~/.railcoll-secret) or " + VARIABLE + " to the secret itself");
    }

    private static String blankToNull(String v) {
        return v == null || v.isBlank() ? null : v.strip();
    }
}
