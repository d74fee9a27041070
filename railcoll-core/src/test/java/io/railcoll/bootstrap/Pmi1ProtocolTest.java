package io.railcoll.bootstrap;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PMI-1 lines as Hydra writes and reads them. */
class Pmi1ProtocolTest {

    @Test
    void commandsAreOneLineOfAttributes() {
        assertEquals("cmd=init pmi_version=1 pmi_subversion=1\n",
                Pmi1Protocol.command("init", "pmi_version", "1", "pmi_subversion", "1"));
        assertEquals("cmd=barrier_in\n", Pmi1Protocol.command("barrier_in"));
        assertEquals("cmd=put kvsname=kvs_7_0 key=railcoll-r3 value=00ff\n",
                Pmi1Protocol.command("put", "kvsname", "kvs_7_0", "key", "railcoll-r3", "value", "00ff"));
    }

    @Test
    void valuesTheWireCannotCarryAreRefusedNamingThem() {
        for (String bad : new String[] {"a b", "a=b", "a\nb", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Pmi1Protocol.command("put", "kvsname", "k", "key", "x", "value", bad));
            assertTrue(e.getMessage().contains("value"), e.getMessage());
        }
    }

    @Test
    void repliesAreParsedInOrderWithTheirValues() {
        Map<String, String> r = Pmi1Protocol.parse("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024 rc=0\n");
        assertEquals("maxes", r.get("cmd"));
        assertEquals(1024, Pmi1Protocol.intAttribute(r, "vallen_max"));
        assertEquals("[cmd, kvsname_max, keylen_max, vallen_max, rc]", r.keySet().toString());
        // A value may itself hold '=' after the first one (the key ends at the first).
        assertEquals("a=b", Pmi1Protocol.parse("cmd=get_result rc=0 value=a=b").get("value"));
        // A server's message may hold spaces: the words belong to the attribute before them.
        assertEquals("key not found", Pmi1Protocol.parse("cmd=get_result rc=-1 msg=key not found").get("msg"));
    }

    @Test
    void theExpectedReplyWithRcZeroPasses() {
        Map<String, String> r = Pmi1Protocol.expect("cmd=get_result rc=0 msg=success value=abc", "get_result",
                "cmd=get kvsname=k key=x\n");
        assertEquals("abc", r.get("value"));
        assertEquals("barrier_out", Pmi1Protocol.expect("cmd=barrier_out", "barrier_out", "cmd=barrier_in\n").get("cmd"));
    }

    @Test
    void anotherReplyOrAFailureNamesWhatWasSent() {
        IllegalStateException wrong = assertThrows(IllegalStateException.class,
                () -> Pmi1Protocol.expect("cmd=put_result rc=0", "get_result", "cmd=get kvsname=k key=x\n"));
        assertTrue(wrong.getMessage().contains("cmd=get kvsname=k key=x") && wrong.getMessage().contains("put_result"),
                wrong.getMessage());
        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> Pmi1Protocol.expect("cmd=get_result rc=-1 msg=key_not_found", "get_result", "cmd=get key=x\n"));
        assertTrue(failed.getMessage().contains("rc=-1") && failed.getMessage().contains("key_not_found"),
                failed.getMessage());
    }

    @Test
    void linesThatAreNotPmiAreRefused() {
        assertThrows(IllegalStateException.class, () -> Pmi1Protocol.parse("HTTP/1.1 400 Bad Request"));
        assertThrows(IllegalStateException.class, () -> Pmi1Protocol.parse("rc=0 value=1"));
        assertThrows(IllegalStateException.class, () -> Pmi1Protocol.intAttribute(Map.of("cmd", "maxes"), "vallen_max"));
        assertThrows(IllegalStateException.class,
                () -> Pmi1Protocol.intAttribute(Map.of("cmd", "maxes", "vallen_max", "big"), "vallen_max"));
    }
}
