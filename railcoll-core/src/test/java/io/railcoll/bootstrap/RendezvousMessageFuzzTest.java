package io.railcoll.bootstrap;

import com.code_intelligence.jazzer.junit.FuzzTest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz target: the rendezvous messages. The server reads a {@link RankRecord} from each authenticated rank and every
 * rank reads the {@link JobTable} the server answers. Whatever the bytes, reading ends in a message or an
 * {@link IOException} naming what was wrong (never another exception, never an allocation beyond the message's own
 * bounds), and what was read writes back to the same bytes.
 *
 * <p>The first input byte picks the message (even: a record, odd: a table). Regression inputs:
 * {@code src/test/resources/io/railcoll/bootstrap/RendezvousMessageFuzzTestInputs/messages/}.
 */
class RendezvousMessageFuzzTest {
    @FuzzTest
    void messages(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(input, 1, input.length - 1));
        boolean table = (input[0] & 1) == 1;
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(again);
        int consumed;
        try {
            if (table) {
                JobTable t = JobTable.read(in);
                consumed = input.length - 1 - in.available();
                assertTrue(t.size() >= 1);
                t.write(out);
            } else {
                RankRecord r = RankRecord.read(in);
                consumed = input.length - 1 - in.available();
                assertTrue(r.railEndpoints().size() <= 64);
                r.write(out);
            }
        } catch (IOException refused) {
            return;
        }
        out.flush();
        byte[] written = again.toByteArray();
        assertEquals(consumed, written.length, "a message reads back to as many bytes as it took");
        byte[] original = java.util.Arrays.copyOfRange(input, 1, 1 + consumed);
        // Node keys are modified UTF-8; a key that decodes can encode differently only through replaced
        // characters, which readUTF does not produce: the bytes must match.
        assertEquals(java.util.HexFormat.of().formatHex(original), java.util.HexFormat.of().formatHex(written));
    }
}
