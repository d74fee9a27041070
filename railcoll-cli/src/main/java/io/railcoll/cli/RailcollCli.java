package io.railcoll.cli;

import picocli.CommandLine;

import java.util.List;
import picocli.CommandLine.Command;

/** {@code bin/railcoll}: the one entry point for users. */
@Command(name = "railcoll", mixinStandardHelpOptions = true, version = "railcoll 0.1.0",
        description = "Multi-rail, SMP-aware collectives for Java processes: run jobs, benchmark, inspect algorithms.",
        subcommands = {RunCommand.class, BenchCommand.class, InfoCommand.class, AppCommand.class, TuneCommand.class, DistCommand.class, CommandLine.HelpCommand.class})
public final class RailcollCli {
    private static volatile List<String> arguments = List.of();

    private RailcollCli() {
    }

    /** The command line this process was started with, for reports. */
    static List<String> arguments() {
        return arguments;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        arguments = List.of(args);
        CommandLine cli = new CommandLine(new RailcollCli());
        // run: everything after the class name is the program's, options included.
        cli.getSubcommands().get("run").setStopAtPositional(true);
        // --jvm-option=-cp DIR: a JVM option may look like one of run's own (-cp).
        cli.getSubcommands().get("run").setAllowOptionsAsOptionParameters(true);
        // Bad input (an unknown id, a bad placement, no root for --netns) is a message, not a stack trace.
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException || e instanceof IllegalStateException
                    || e instanceof io.railcoll.RailcollException
                    || e instanceof io.railcoll.launcher.testbed.TestbedException) {
                commandLine.getErr().println("railcoll: " + e.getMessage());
                return 2;
            }
            throw e;
        });
        int code = cli.execute(args);
        System.exit(code);
    }
}
