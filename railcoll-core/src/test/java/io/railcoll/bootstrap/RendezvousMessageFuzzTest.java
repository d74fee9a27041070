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
 * bounds), and what was read writes back to bytes that read the same.
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
        Object read;
        try {
            if (table) {
                JobTable t = JobTable.read(in);
                assertTrue(t.size() >= 1);
                t.write(out);
                read = t;
            } else {
                RankRecord r = RankRecord.read(in);
                assertTrue(r.railEndpoints().size() <= 64);
                r.write(out);
                read = r;
            }
        } catch (IOException refused) {
            return;
        }
        out.flush();
        // What was read writes back to bytes that read the same. (Not necessarily the same bytes: readUTF also takes
        // a raw NUL byte, which writeUTF writes as two; found by this target, harmless.)
        DataInputStream back = new DataInputStream(new ByteArrayInputStream(again.toByteArray()));
        Object reread = table ? JobTable.read(back) : RankRecord.read(back);
        assertEquals(read, reread);
        assertEquals(0, back.available(), "a message reads back to as many bytes as were written");
    }
}
