package io.railcoll.select;

import io.railcoll.settings.RailcollSettings;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The selection settings read from the environment, documented the way {@link io.railcoll.Config} documents its own.
 *
 * @param tuningFile the tuning file whose cost model and rules selection uses ({@code RAILCOLL_TUNING=path}, written
 *                   by {@code bin/railcoll tune}); absent: the built-in table measured on the default emulated
 *                   cluster. A file that does not parse, or whose rules name an algorithm that cannot run a shape
 *                   they cover, fails start-up naming the line.
 */
public record SelectionSettings(Optional<Path> tuningFile) {
    public static final String TUNING_VARIABLE = RailcollSettings.TUNING.name();

    public static SelectionSettings fromEnvironment(Map<String, String> env) {
        String v = RailcollSettings.TUNING.read(env);
        return new SelectionSettings(v.isEmpty() ? Optional.empty() : Optional.of(Path.of(v)));
    }

    /** The tuning these settings name, loaded and checked. */
    public Tuning load() {
        return tuningFile.map(TuningFile::load).orElseGet(TuningFile::builtIn);
    }
}
