package io.railcoll.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The facts about the machine a report needs so a reader can judge its numbers: when, how many
 * cores (ranks beyond that share them), which CPU, JDK and OS, and how fast a thread wake-up was when the report
 * was written ({@link WakeUpProbe}; NaN when not measured). Immutable.
 */
public record MachineFacts(String date, int cores, String cpu, String jdk, String os, double wakeUpRoundTripUs) {

    /** Facts without a wake-up measurement. */
    public MachineFacts(String date, int cores, String cpu, String jdk, String os) {
        this(date, cores, cpu, jdk, os, Double.NaN);
    }

    public MachineFacts {
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(os, "os");
    }

    /** Facts about this machine now; the clock is passed in so tests get a fixed date. */
    public static MachineFacts current(Clock clock) {
        String date = ZonedDateTime.now(clock).truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String jdk = Runtime.version() + " (" + System.getProperty("java.vm.vendor", "unknown vendor") + ")";
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        return new MachineFacts(date, Runtime.getRuntime().availableProcessors(), cpuModel(), jdk, os,
                WakeUpProbe.measure());
    }

    /** The first "model name" of /proc/cpuinfo; "unknown" where there is none (not Linux, or hidden). */
    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    int colon = line.indexOf(':');
                    return colon < 0 ? "unknown" : line.substring(colon + 1).strip();
                }
            }
        } catch (IOException e) {
            // A report without the CPU model is still a report; the other facts stand.
        }
        return "unknown";
    }
}
