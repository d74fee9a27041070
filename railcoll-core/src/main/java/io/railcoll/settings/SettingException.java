package io.railcoll.settings;

/**
 * A setting whose value cannot be used. The message names the setting, the value given and what is accepted,
 * on one line, e.g. {@code RAILCOLL_PORTS=4294967297 is out of range; accepted: 0..1024 (0 = one per rail)}.
 */
public final class SettingException extends IllegalArgumentException {
    private final String setting;
    private final String value;

    public SettingException(String setting, String value, String problem, String accepted) {
        super(setting + "=" + value + " " + problem + "; accepted: " + accepted);
        this.setting = setting;
        this.value = value;
    }

    /** The setting's name: a variable such as {@code RAILCOLL_TIMEOUT_MS}, or a CLI option such as {@code --samples}. */
    public String setting() {
        return setting;
    }

    public String value() {
        return value;
    }
}
