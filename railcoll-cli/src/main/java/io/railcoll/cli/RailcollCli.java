package io.railcoll.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/railcoll}: the one entry point for users. */
@Command(name = "railcoll", mixinStandardHelpOptions = true, version = "railcoll 0.1.0",
        description = "Multi-rail, SMP-aware collectives for Java processes: run jobs, benchmark, inspect algorithms.",
        subcommands = {RunCommand.class, CommandLine.HelpCommand.class})
public final class RailcollCli {
    private RailcollCli() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        int code = new CommandLine(new RailcollCli()).execute(args);
        System.exit(code);
    }
}
