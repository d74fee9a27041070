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

    /**
     * Bad input on the command line (an unknown option, a value a converter refused, a --set that disagrees with an
     * option): one line naming the option and the accepted values, exit code 2, and no usage dump to scroll past.
     */
    static int badInput(CommandLine.ParameterException e, String[] args) {
        CommandLine where = e.getCommandLine();
        String message = e.getMessage() == null ? e.toString() : e.getMessage().replaceAll("\\s*\\R\\s*", " ").strip();
        where.getErr().println(where.getCommandSpec().qualifiedName() + ": " + message
                + " (see " + where.getCommandSpec().qualifiedName() + " --help)");
        where.getErr().flush();
        return 2;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        arguments = List.of(args);
        int code = commandLine().execute(args);
        System.exit(code);
    }

    /** The command line with railcoll's handlers: bad input is one line and exit code 2, never a stack trace. */
    static CommandLine commandLine() {
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
        cli.setParameterExceptionHandler(RailcollCli::badInput);
        return cli;
    }
}
