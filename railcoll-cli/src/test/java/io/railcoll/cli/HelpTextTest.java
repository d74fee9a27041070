package io.railcoll.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's help renders as written. picocli treats descriptions as format strings, so a
 * bare "5%" in one makes it print a warning to stderr and show the raw text; users see the noise.
 */
class HelpTextTest {
    @Test
    void everyCommandsHelpRendersWithoutAPicocliWarning() {
        CommandLine root = new CommandLine(RailcollCli.class);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int rendered = 0;
        try {
            rendered += render(root);
        } finally {
            System.setErr(err);
        }
        String warnings = captured.toString(StandardCharsets.UTF_8);
        assertEquals("", warnings, "picocli complained while rendering the help texts");
        assertTrue(rendered >= 6, "rendered only " + rendered + " commands' help");
    }

    @Test
    void thePercentInTheWarmUpHelpIsShownAsAPercent() {
        String help = new CommandLine(RailcollCli.class).getSubcommands().get("bench").getUsageMessage();
        assertTrue(help.contains("more than 5% of a round"), help);
        assertFalse(help.contains("%%"), help);
    }

    private static int render(CommandLine command) {
        command.getUsageMessage();
        int count = 1;
        for (CommandLine sub : command.getSubcommands().values()) {
            count += render(sub);
        }
        return count;
    }
}
