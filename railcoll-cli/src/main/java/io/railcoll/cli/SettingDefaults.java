package io.railcoll.cli;

import io.railcoll.settings.RailcollSettings;
import io.railcoll.settings.Setting;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.Map;

/**
 * The defaults of the options that set a railcoll setting, taken from the setting's definition so the CLI's help and
 * the library's default cannot drift apart.
 */
public final class SettingDefaults implements IDefaultValueProvider {
    private static final Map<String, Setting<?>> BY_OPTION = Map.of(
            "--engine", RailcollSettings.ENGINE,
            "--timeout-ms", RailcollSettings.TIMEOUT,
            "--stripe-threshold", RailcollSettings.STRIPE_THRESHOLD,
            "--deterministic", RailcollSettings.DETERMINISTIC);

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (argSpec instanceof OptionSpec option) {
            Setting<?> s = BY_OPTION.get(option.longestName());
            if (s != null) {
                return shown(s);
            }
        }
        return null;
    }

    private static <T> String shown(Setting<T> s) {
        return s.show(s.defaultValue());
    }
}
