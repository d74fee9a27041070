package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RailImpairmentTest {

    @Test
    void parsesTheIssuesExampleInPartsPerMillion() {
        RailImpairment i = RailImpairment.parse("  loss 5%  corrupt 1% duplicate 1%\treorder 5% ");
        assertEquals(new RailImpairment("loss 5% corrupt 1% duplicate 1% reorder 5%", 50_000, 10_000, 10_000, 50_000), i);
        assertEquals(List.of("loss", "5%", "corrupt", "1%", "duplicate", "1%", "reorder", "5%", "delay", "1ms"), i.netemOptions());
    }

    @Test
    void anyOrderAnySubsetAndFractions() {
        RailImpairment i = RailImpairment.parse("reorder 0.5% LOSS 12.25%");
        assertEquals(122_500, i.lossPpm());
        assertEquals(5_000, i.reorderPpm());
        assertEquals(0, i.corruptPpm());
        assertEquals(List.of("loss", "12.25%", "reorder", "0.5%", "delay", "1ms"), i.netemOptions());
        assertEquals(List.of("duplicate", "100%"), RailImpairment.parse("duplicate 100%").netemOptions());
        assertEquals("0.0001%", RailImpairment.percent(1));
        assertFalse(RailImpairment.parse("loss 1%").reorders());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "delay 1ms|\"delay\" is a tc netem option the testbed cannot emulate",
            "loss 5% delay 10ms|\"delay\" is a tc netem option",
            "loss 5% 25%|\"25%\" is a second value after \"loss\" (netem's correlation)",
            "loss banana|\"loss\" needs a percentage such as loss 5%, got \"banana\"",
            "loss|\"loss\" needs a percentage",
            "loss 5% loss 1%|\"loss\" is given twice",
            "loss 101%|101% is over 100%",
            "loss 0.00001%|more than four decimals",
            "rate 1mbit|\"rate\" is a tc netem option",
            "slowly 5%|\"slowly\" is not an impairment",
            "loss 5%; reboot|\"5%;\"",
    })
    void refusesAnythingElseNamingTheWord(String spec, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RailImpairment.parse(spec));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("rail impairment \"" + spec.strip() + "\""), e.getMessage());
    }

    @Test
    void emptyIsRefusedSayingWhatIsAccepted() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RailImpairment.parse(" ")).getMessage()
                .contains("loss P%, corrupt P%, duplicate P%, reorder P%"));
    }

    @Test
    void theNftScriptHasOneEgressChainPerPortAndOnlyTheRulesAskedFor() {
        String script = RailImpairment.parse("loss 5% corrupt 1% duplicate 1% reorder 5%").nftScript(List.of("n0r0", "n1r0"));
        assertEquals("""
                table netdev railcoll {
                  chain n0r0 {
                    type filter hook egress device "n0r0" priority 0; policy accept;
                    meta protocol ip meta mark != 0x72630001 numgen random mod 1000000 < 10000 counter meta mark set 0x72630001 dup to "n0r0" meta mark set 0 comment "duplicate"
                    meta mark 0x72630001 meta mark set 0
                    meta protocol ip numgen random mod 1000000 < 50000 counter drop comment "loss"
                    meta protocol ip numgen random mod 1000000 < 10000 counter @nh,32,16 set @nh,32,16 ^ 0x0100 comment "corrupt"
                    meta protocol ip numgen random mod 1000000 < 50000 counter meta priority set 1:20 comment "reorder"
                  }
                  chain n1r0 {
                    type filter hook egress device "n1r0" priority 0; policy accept;
                    meta protocol ip meta mark != 0x72630001 numgen random mod 1000000 < 10000 counter meta mark set 0x72630001 dup to "n1r0" meta mark set 0 comment "duplicate"
                    meta mark 0x72630001 meta mark set 0
                    meta protocol ip numgen random mod 1000000 < 50000 counter drop comment "loss"
                    meta protocol ip numgen random mod 1000000 < 10000 counter @nh,32,16 set @nh,32,16 ^ 0x0100 comment "corrupt"
                    meta protocol ip numgen random mod 1000000 < 50000 counter meta priority set 1:20 comment "reorder"
                  }
                }
                """, script);
        String lossOnly = RailImpairment.parse("loss 1%").nftScript(List.of("p"));
        assertFalse(lossOnly.contains("dup") || lossOnly.contains("@nh") || lossOnly.contains("priority set"), lossOnly);
    }
}
