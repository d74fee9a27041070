package io.railcoll.launcher.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NamespaceNamesTest {

    @Test
    void tagsCarryThisJvmsPidAndDifferBetweenTestbeds() {
        String tag = NamespaceNames.newTag();
        assertTrue(NamespaceNames.isTag(tag), tag);
        assertTrue(tag.startsWith(ProcessHandle.current().pid() + "-"), tag);
        assertNotEquals(tag, NamespaceNames.newTag());
    }

    @Test
    void everyRoleNameReadsBackToItsOwner() {
        String tag = NamespaceNames.newTag();
        NamespaceNames.Owner owner = new NamespaceNames.Owner(tag, ProcessHandle.current().pid());
        assertEquals(Optional.of(owner), NamespaceNames.parse(NamespaceNames.node(tag, 12)));
        assertEquals(Optional.of(owner), NamespaceNames.parse(NamespaceNames.switchNamespace(tag)));
        assertEquals(Optional.of(owner), NamespaceNames.parse(NamespaceNames.probe(tag)));
        assertTrue(owner.alive());
    }

    @Test
    void foreignNamesHaveNoOwner() {
        assertEquals(Optional.empty(), NamespaceNames.parse("rc-probe-n0"));
        assertEquals(Optional.empty(), NamespaceNames.parse("docker-123-abc-n0"));
        assertEquals(Optional.empty(), NamespaceNames.parse("rc-12-abc"));
        assertEquals(Optional.empty(), NamespaceNames.parse("rc-99999999999999999999-abc-n0"));
    }

    @Test
    void aFinishedProcessIsNotAlive() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        assertTrue(!new NamespaceNames.Owner(done.pid() + "-x", done.pid()).alive());
    }
}
