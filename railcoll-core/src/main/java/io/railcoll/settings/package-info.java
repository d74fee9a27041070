/**
 * Every railcoll setting, defined once: its name, the type it is used as, its accepted range, its default and its
 * documentation ({@link io.railcoll.settings.RailcollSettings}), and the one parser that reads it from the
 * environment, a {@code --set}, a CLI option or a tuning file ({@link io.railcoll.settings.Setting}). JDK only;
 * imports nothing else of railcoll, so every layer may use it.
 */
package io.railcoll.settings;
