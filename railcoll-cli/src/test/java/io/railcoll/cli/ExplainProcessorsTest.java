package io.railcoll.cli;

import io.railcoll.topology.Placement;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code railcoll info --explain}'s processor verdict (decision 0196): given, or as an emulated job here would find. */
class ExplainProcessorsTest {

    @Test
    void givenVerdictWins() {
        assertTrue(InfoCommand.everyRankHasAProcessor("own", Placement.singleNode(64), 2));
        assertFalse(InfoCommand.everyRankHasAProcessor("shared", Placement.singleNode(2), 64));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InfoCommand.everyRankHasAProcessor("mine", Placement.singleNode(2), 2));
        assertTrue(e.getMessage().contains("own or shared"), e.getMessage());
    }

    @Test
    void oneNodeCountsItsRanksAndAnEmulatedClusterEveryRank() {
        assertTrue(InfoCommand.everyRankHasAProcessor(null, Placement.singleNode(16), 16));
        assertFalse(InfoCommand.everyRankHasAProcessor(null, Placement.singleNode(16), 2));
        // 4x4 on 16 processors: 16 ranks on 16 (own); on 8: shared although a node's 4 ranks would fit.
        assertTrue(InfoCommand.everyRankHasAProcessor(null, Placement.uniform(4, 4), 16));
        assertFalse(InfoCommand.everyRankHasAProcessor(null, Placement.uniform(4, 4), 8));
    }
}
